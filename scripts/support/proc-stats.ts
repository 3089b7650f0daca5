// What Linux says about a running process (/proc), for the benchmarks' memory and CPU figures.
import { readFileSync } from 'node:fs';

/** A process's resident memory now (VmRSS) and at its peak so far (VmHWM), in MiB. */
export function residentMiB(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024;
  return { now: field('VmRSS'), peak: field('VmHWM') };
}

/** CPU seconds (user + system) a process has used. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
