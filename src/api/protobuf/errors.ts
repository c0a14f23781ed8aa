/**
 * The one error the protobuf decoder throws: a 400 BadRequest `Status`, as upstream answers a
 * body its protobuf serializer cannot decode.
 *
 * @module
 */
import { StatusError } from '../errors.js';

/** A request body that is not a Kubernetes protobuf object this server can read (400). */
export class ProtobufDecodeError extends StatusError {
  constructor(message: string) {
    super(400, 'BadRequest', `protobuf: ${message}`);
    this.name = 'ProtobufDecodeError';
  }
}
