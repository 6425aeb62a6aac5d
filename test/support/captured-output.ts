/**
 * What a command writes to stdout and stderr during a test: both streams' `write` are spied on and
 * each chunk kept as a string (nothing reaches the terminal). Restore with `vi.restoreAllMocks()`.
 */
import { vi } from 'vitest';

/** Start capturing; the arrays fill as the command writes. */
export function capturedOutput(): { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
  return { stdout, stderr };
}
