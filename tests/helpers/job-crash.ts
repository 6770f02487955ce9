/**
 * The test side of a job run in a process of its own (tests/helpers/job-child.ts): runs the
 * child program over a database at a given time, waits for it to end (or be killed), and reads
 * its output: how many step lines it printed and its `report <json>` line, checked by a schema.
 */
import type { z } from 'zod';
import { runScript, type Child } from './child-process.js';

export interface JobChildRun<R> {
  exit: Awaited<Child['exited']>;
  output: string;
  /** Lines of stdout starting with `stepPrefix`. */
  steps: number;
  /** The parsed report, or null when the child died before printing one. */
  report: R | null;
}

/** Runs `script` with DATABASE_URL, NOW and CRASH_AFTER set, and reads what it printed. */
export async function runJobChildScript<R>(
  script: string,
  options: {
    databaseUrl: string;
    now: Date;
    crashAfter: number;
    stepPrefix: string;
    reportSchema: z.ZodType<R>;
  },
): Promise<JobChildRun<R>> {
  const child = runScript(script, [], {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    NOW: options.now.toISOString(),
    CRASH_AFTER: String(options.crashAfter),
  });
  const exit = await child.exited;
  const lines = child.output().split('\n');
  const report = lines.find((line) => line.startsWith('report '));
  return {
    exit,
    output: child.output(),
    steps: lines.filter((line) => line.startsWith(options.stepPrefix)).length,
    report: report ? options.reportSchema.parse(JSON.parse(report.slice('report '.length))) : null,
  };
}
