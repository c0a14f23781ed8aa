/**
 * An API client that counts its status writes (each a PUT the server answers, 409 or not):
 * the observable of "no write that changes nothing" in the controllers' stale-cache tests.
 *
 * @module
 */
import { ApiClient } from '../../client/api-client.js';

export class CountingClient extends ApiClient {
  statusWrites = 0;
  override updateStatus(...args: Parameters<ApiClient['updateStatus']>) {
    this.statusWrites++;
    return super.updateStatus(...args);
  }
}
