/**
 * `fleetyard scenario`: run scenario files against a fresh simulated cluster each, under a
 * paused virtual clock (`src/sim/scenario/`, the format in `scenario.schema.json`).
 *
 *     fleetyard scenario run [--junit FILE] [--json FILE] [--events all|changes|none] FILE…
 *     fleetyard scenario validate FILE…
 *     fleetyard scenario schema
 *
 * Files run one after another, each on its own cluster. The timeline goes to stdout; the
 * exit code is 0 only if every file parsed and every step and invariant held (1 otherwise,
 * 2 for a bad command line). When stderr is a terminal, a progress line there shows the
 * file, the step and the virtual time (terminal/scenario-progress.ts); never otherwise.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { ClusterOptions, TestCluster } from '../sim/cluster.js';
import type { ScenarioCluster, StartCluster } from '../sim/scenario/cluster.js';
import { JsonLog } from '../sim/scenario/json-log.js';
import { junitXml } from '../sim/scenario/junit.js';
import { readScenarioFile, SCENARIO_SCHEMA, ScenarioParseError } from '../sim/scenario/parse.js';
import { listeners, type RunListener } from '../sim/scenario/records.js';
import type { ScenarioResult } from '../sim/scenario/results.js';
import { runScenario } from '../sim/scenario/runner.js';
import { type EventDetail, Timeline } from '../sim/scenario/timeline.js';
import { progressLine, type TerminalStream } from './terminal/progress-line.js';
import { ScenarioProgress } from './terminal/scenario-progress.js';

export const SCENARIO_USAGE = `Usage: fleetyard scenario <run|validate|schema> [options] [FILE...]

Commands:
  run FILE...        Run each scenario on a fresh simulated cluster (virtual clock, paused:
                     time moves only as the steps say), one after another
  validate FILE...   Check the files (YAML, schema, CEL, JSONPath, selectors) without running
  schema             Print the scenario format's JSON Schema

Options for run:
  --junit FILE       Write JUnit XML: a test suite per file, a test case per step and invariant
  --json FILE        Write a JSON line per watch event, step and violation
  --events MODE      Events in the timeline: changes (default: leave out updates whose
                     summary did not change), all, none
  --history N        Events shown before an invariant violation (default 20)
  --log-level LEVEL  The cluster components' log on stderr (default silent)

Exit code: 0 when every step and invariant held in every file, 1 otherwise, 2 for usage.
`;

export interface ScenarioIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Starts each file's cluster. @default startCluster (src/harness/start-cluster.ts) */
  readonly startCluster?: StartCluster;
  /** Adapts a started cluster (tests). */
  readonly adapt?: (cluster: TestCluster) => Promise<ScenarioCluster>;
  /** Where `run`'s progress line goes; drawn only when it is a terminal. @default process.stderr */
  readonly terminal?: TerminalStream;
}

const EVENT_MODES: readonly EventDetail[] = ['all', 'changes', 'none'];
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

class UsageError extends Error {}

interface RunCommand {
  readonly files: readonly string[];
  readonly junit?: string;
  readonly json?: string;
  readonly events: EventDetail;
  readonly history: number;
  readonly logLevel: ClusterOptions['logLevel'];
}

function parseRun(argv: readonly string[]): RunCommand {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof RUN_OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: RUN_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new UsageError('no scenario files given');
  const events = EVENT_MODES.find((m) => m === (values.events ?? 'changes'));
  if (events === undefined)
    throw new UsageError(`--events must be all, changes or none, not ${values.events}`);
  const history = Number(values.history ?? '20');
  if (!Number.isInteger(history) || history < 1)
    throw new UsageError(`--history must be a positive integer, not ${values.history}`);
  const logLevel = LOG_LEVELS.find((l) => l === (values['log-level'] ?? 'silent'));
  if (logLevel === undefined)
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  return { files: positionals, junit: values.junit, json: values.json, events, history, logLevel };
}

const RUN_OPTIONS = {
  junit: { type: 'string' },
  json: { type: 'string' },
  events: { type: 'string' },
  history: { type: 'string' },
  'log-level': { type: 'string' },
} as const;

/** Runs `fleetyard scenario …`; resolves to the exit code. */
export async function runScenarioCommand(argv: readonly string[], io: ScenarioIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(SCENARIO_USAGE);
    return sub === undefined ? 2 : 0;
  }
  try {
    switch (sub) {
      case 'schema':
        io.stdout(`${JSON.stringify(SCENARIO_SCHEMA, null, 2)}\n`);
        return 0;
      case 'validate':
        if (rest.length === 0) throw new UsageError('no scenario files given');
        return await validate(rest, io);
      case 'run':
        return await run(parseRun(rest), io);
      default:
        throw new UsageError(`unknown command "${sub}"`);
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`error: ${err.message}\n${SCENARIO_USAGE}`);
    return 2;
  }
}

async function validate(files: readonly string[], io: ScenarioIo): Promise<number> {
  let code = 0;
  for (const file of files) {
    try {
      const s = await readScenarioFile(file);
      io.stdout(`${file}: ok (${s.steps.length} steps, ${s.invariants.length} invariants)\n`);
    } catch (err) {
      code = 1;
      io.stderr(`${parseMessage(file, err)}\n`);
    }
  }
  return code;
}

async function run(command: RunCommand, given: ScenarioIo): Promise<number> {
  const start = given.startCluster ?? (await defaultStartCluster());
  // On a terminal only; the timeline's lines (stdout, often the same terminal) erase it first.
  const line = progressLine(given.terminal ?? process.stderr);
  const progress = line && new ScenarioProgress(command.files.length, line);
  const io: ScenarioIo = line
    ? { ...given, stdout: (text) => line.around(() => given.stdout(text)) }
    : given;
  const timeline = new Timeline((l) => io.stdout(`${l}\n`), { events: command.events });
  // Streamed: a 24-hour run logs thousands of events with their objects.
  const jsonFile = command.json ? createWriteStream(command.json) : undefined;
  const all = [timeline, ...(jsonFile ? [new JsonLog((l) => jsonFile.write(l))] : [])];
  const listener = listeners(...all, ...(progress ? [progress] : []));
  const results: ScenarioResult[] = [];
  try {
    await runFiles(command, io, start, listener, results, progress);
  } finally {
    line?.end();
    if (jsonFile)
      await new Promise<void>((resolve, reject) =>
        jsonFile.end((err?: Error | null) => (err ? reject(err) : resolve())),
      );
  }
  if (command.junit) await writeFile(command.junit, junitXml(results));
  const failed = results.filter((r) => !r.passed);
  if (results.length > 1) {
    io.stdout(
      `${results.length - failed.length} of ${results.length} scenarios passed${failed.length ? `; failed: ${failed.map((r) => r.file).join(', ')}` : ''}\n`,
    );
  }
  return failed.length === 0 ? 0 : 1;
}

async function runFiles(
  command: RunCommand,
  io: ScenarioIo,
  start: StartCluster,
  listener: RunListener,
  results: ScenarioResult[],
  progress: ScenarioProgress | undefined,
): Promise<void> {
  for (const file of command.files) {
    let scenario: Awaited<ReturnType<typeof readScenarioFile>>;
    try {
      scenario = await readScenarioFile(file);
    } catch (err) {
      const message = parseMessage(file, err);
      io.stdout(
        `=== scenario ${file}\n${message}\n--- FAIL ${file}: the file is not a valid scenario\n`,
      );
      results.push(parseFailure(file, message));
      continue;
    }
    progress?.startFile(scenario.name, scenario.steps.length);
    results.push(
      await runScenario(scenario, {
        startCluster: start,
        ...(io.adapt ? { adapt: io.adapt } : {}),
        listener,
        historySize: command.history,
        logLevel: command.logLevel,
      }),
    );
  }
}

function parseMessage(file: string, err: unknown): string {
  if (err instanceof ScenarioParseError) return err.message;
  const code = err instanceof Error && 'code' in err ? err.code : undefined;
  if (code === 'ENOENT') return `${file}: no such file`;
  return `${file}: ${err instanceof Error ? err.message : String(err)}`;
}

function parseFailure(file: string, message: string): ScenarioResult {
  return {
    name: file,
    file,
    passed: false,
    error: { phase: 'parse', message },
    steps: [],
    invariants: [],
    startTime: 0,
    virtualMs: 0,
    wallMs: 0,
  };
}

/** The test API's startCluster, loaded only when a scenario runs. */
async function defaultStartCluster(): Promise<StartCluster> {
  const { startCluster } = await import('../harness/start-cluster.js');
  return startCluster;
}
