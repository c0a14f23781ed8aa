/**
 * The clock bar on every page: cluster time (extrapolated between CLOCK frames), and with a
 * virtual clock the controls `fleetyard clock` has: pause, resume, speed, advance by a
 * duration. A real clock is shown read-only.
 *
 * @module
 */
import { computed, useSignal } from '@preact/signals';
import { clusterNowMs, formatClusterTime, parseDuration } from '../data/clock.js';
import { advanceClock, pauseClock, SPEEDS, setClockSpeed } from '../data/clock-api.js';
import { api, clock, runCall, showAlert, wallNow } from '../state.js';

const liveNow = computed(() => {
  const c = clock.value;
  return c === undefined ? undefined : clusterNowMs(c, wallNow.value);
});

export function ClockBar() {
  const c = clock.value;
  const advanceBy = useSignal('5m');
  const now = liveNow.value;
  const virtual = c?.mode === 'virtual';
  const speeds: string[] =
    c === undefined || (SPEEDS as readonly string[]).includes(c.speed)
      ? [...SPEEDS]
      : [...SPEEDS, c.speed];
  return (
    <div class="clock">
      <span
        class="clock-time"
        data-testid="clock-time"
        data-mode={c?.mode}
        data-state={c?.state}
        aria-live="off"
      >
        {now === undefined ? '—' : formatClusterTime(now)}
      </span>
      <span class="muted clock-state">
        {c === undefined ? '' : c.mode === 'real' ? 'real time' : `${c.state} ×${c.speed}`}
      </span>
      {virtual && (
        <span class="clock-controls">
          <button
            type="button"
            data-testid="clock-pause"
            aria-pressed={c.paused}
            onClick={() => void runCall('clock paused', () => pauseClock(api, true))}
          >
            Pause
          </button>
          <button
            type="button"
            data-testid="clock-resume"
            onClick={() => void runCall('clock resumed', () => pauseClock(api, false))}
          >
            Resume
          </button>
          <label>
            <span class="sr-only">Speed</span>
            <select
              data-testid="clock-speed"
              aria-label="Clock speed"
              value={c.speed}
              onChange={(e) => {
                const speed = e.currentTarget.value;
                void runCall(`clock speed ${speed}`, () => setClockSpeed(api, speed));
              }}
            >
              {speeds.map((s) => (
                <option key={s} value={s}>
                  ×{s}
                </option>
              ))}
            </select>
          </label>
          <input
            class="advance-by"
            data-testid="clock-advance-by"
            aria-label="Advance by (for example 5m, 90s, 1h30m)"
            value={advanceBy.value}
            size={6}
            onInput={(e) => (advanceBy.value = e.currentTarget.value)}
          />
          <button
            type="button"
            data-testid="clock-advance"
            onClick={() => {
              const ms = parseDuration(advanceBy.value);
              if (ms === undefined) {
                showAlert(`invalid duration "${advanceBy.value}": want e.g. 90s, 5m, 1h30m`);
                return;
              }
              void runCall(`advancing ${advanceBy.value}`, () => advanceClock(api, ms));
            }}
          >
            Advance
          </button>
        </span>
      )}
    </div>
  );
}
