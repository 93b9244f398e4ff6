/**
 * The one table of exit codes. Scripts depend on these numbers: never change a released code.
 * `svc help exit-codes` and the README print this table.
 */
export const EXIT = {
  OK: 0,
  GATE_FAILED: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  REJECTED: 5,
  NETWORK: 6,
  BAD_RESPONSE: 7,
  PENDING: 8,
  OUTPUT: 9,
  PARTIAL: 10,
  INTERNAL: 70,
  INTERRUPTED: 130,
  TERMINATED: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_TABLE: ReadonlyArray<{ code: ExitCode; meaning: string }> = [
  { code: EXIT.OK, meaning: 'Success (for `svc gate`: every threshold held)' },
  { code: EXIT.GATE_FAILED, meaning: 'Gate failed: a threshold was broken, or the scan it gates on (or waits for) failed (only `svc gate` and scan waits use it)' },
  { code: EXIT.USAGE, meaning: 'Usage error or invalid input, found before any request was sent, or a config file svc cannot use (corrupt, not a regular file, not readable, writable or deletable) (for `svc gate` also: a policy file that is there but cannot be read, a report file that is one of its inputs or the config file, a CI event file `--commit auto` must read but cannot)' },
  { code: EXIT.AUTH, meaning: 'Not authenticated: no credentials, or the service answered 401/403' },
  { code: EXIT.NOT_FOUND, meaning: 'Not found: the service answered 404, or an id `svc gate` (or an empty `issues search`) is scoped to does not exist, or no issue of any status names a scan of the commit `svc gate --commit` names (not scanned yet, or a wrong sha), or the organization `svc auth status` checks is not one the token can see' },
  { code: EXIT.REJECTED, meaning: 'Rejected by the service as wrong: 400, 409, 422 or another 4xx (not 404 or 429); sending it again will not help. Also a 200 whose answer says `"ok": false` (OkResponse: the service says it did not do it; a bulk action counts that id failed)' },
  { code: EXIT.NETWORK, meaning: 'May work later: network failure, timeout, a 5xx, or 429 (rate-limited) after the retries' },
  { code: EXIT.BAD_RESPONSE, meaning: 'The response could not be understood or contradicts itself or the request (not JSON, truncated, nested more than 1000 levels deep, wrong shape where it matters, a 2xx other than 200, an error key, a non-empty errors list or success: false beside data, a key twice, counts that disagree, items outside the scope asked for, values outside the spec where a verdict depends on them)' },
  { code: EXIT.PENDING, meaning: 'Pending: the scan `svc gate --scan-id` gates on has not finished, or its status and finished-flags disagree (add --wait); for `svc gate --commit`: a scan of that commit has not finished (unless a breaking issue of it was read: exit 1), or none is found while a scan of the scope\'s repositories is queued or running (run it again later); no verdict' },
  { code: EXIT.OUTPUT, meaning: 'The output could not be written (stdout or a report file: disk full, read-only, I/O error; for `svc gate` also its temporary file of kept issues, then with no verdict), or not made (`--jq` whose engine ran out of memory or stack); `svc gate` keeps a failing verdict\'s code' },
  { code: EXIT.PARTIAL, meaning: 'Partly done: a bulk action (`--where`) or `svc issues triage` skipped issues the service answered outside the filter that found them (another status, repository, scan..., or none shown), or whose id is a number svc cannot send exactly: never acted on, each listed; everything else succeeded' },
  { code: EXIT.INTERNAL, meaning: 'Unexpected internal error (run again with --debug for the stack trace)' },
  { code: EXIT.INTERRUPTED, meaning: 'Interrupted (Ctrl-C / SIGINT)' },
  { code: EXIT.TERMINATED, meaning: 'Terminated (SIGTERM)' },
];

/**
 * A bulk action (an issue action given several ids, `--ids-from` or `--where`) exits 0 only when every
 * id succeeded; otherwise with the code of its most serious failure, first in this order: credentials
 * (nothing will work), an answer not understood (state unknown), may work later, rejected, not found.
 * Interrupted: 130/143 whatever else happened.
 */
export const BULK_FAILURE_ORDER: readonly ExitCode[] = [EXIT.INTERNAL, EXIT.AUTH, EXIT.BAD_RESPONSE, EXIT.NETWORK, EXIT.REJECTED, EXIT.NOT_FOUND, EXIT.USAGE, EXIT.PARTIAL];

export const BULK_EXIT_NOTE = `Bulk actions (several ids, --ids-from, --where): 0 only when every id succeeded; otherwise the code of the most serious failure among the ids, in this order: ${BULK_FAILURE_ORDER.join(', ')} (10: an issue --where found outside its filter, skipped); 130/143 when interrupted. Each id's own code is in its record (-o json).`;

export function formatExitCodes(): string {
  const lines = EXIT_CODE_TABLE.map(({ code, meaning }) => `  ${String(code).padStart(3)}  ${meaning}`);
  return `Exit codes of svc:\n\n${lines.join('\n')}\n\n${BULK_EXIT_NOTE}\n`;
}
