/**
 * The webhooks of the stored configurations in the order upstream calls them: configurations
 * sorted by name, then each configuration's webhooks in their listed order
 * (`configuration/mutating_webhook_manager.go`, `validating_webhook_manager.go`). Each gets
 * upstream's accessor UID `<configuration>/<webhook>/<index>`, which reinvocation tracks.
 *
 * @module
 */
import type {
  MutatingWebhook,
  MutatingWebhookConfiguration,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
} from '../../../api/model/index.js';

export interface WebhookEntry {
  /** Upstream `WebhookAccessor.GetUID()`. */
  readonly uid: string;
  readonly configurationName: string;
  readonly hook: MutatingWebhook | ValidatingWebhook;
  readonly mutating: boolean;
  /** `reinvocationPolicy: IfNeeded` (mutating webhooks only). */
  readonly reinvocable: boolean;
}

function byName<T extends { metadata?: { name?: string } }>(configs: readonly T[]): T[] {
  const name = (c: T): string => c.metadata?.name ?? '';
  // Stable, by code units, as Go's sort.SliceStable on strings.
  return [...configs].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

export function mutatingHooks(configs: readonly MutatingWebhookConfiguration[]): WebhookEntry[] {
  const out: WebhookEntry[] = [];
  for (const config of byName(configs)) {
    const configurationName = config.metadata?.name ?? '';
    (config.webhooks ?? []).forEach((hook, i) => {
      out.push({
        uid: `${configurationName}/${hook.name}/${i}`,
        configurationName,
        hook,
        mutating: true,
        reinvocable: hook.reinvocationPolicy === 'IfNeeded',
      });
    });
  }
  return out;
}

export function validatingHooks(
  configs: readonly ValidatingWebhookConfiguration[],
): WebhookEntry[] {
  const out: WebhookEntry[] = [];
  for (const config of byName(configs)) {
    const configurationName = config.metadata?.name ?? '';
    (config.webhooks ?? []).forEach((hook, i) => {
      out.push({
        uid: `${configurationName}/${hook.name}/${i}`,
        configurationName,
        hook,
        mutating: false,
        reinvocable: false,
      });
    });
  }
  return out;
}
