/**
 * THE table of what svc checks in a service's answer before it shows, counts or acts on it: each
 * check declared once, with its basis (what makes svc expect otherwise) and what it does where it
 * applies. The code that finds a doubt names its row (`doubts.add('counts-above-total', ...)`); what
 * happens then is this table's, per use (doubts.ts). docs/security.md's list of what svc does not
 * trust is generated from it (`npm run docs`, src/docs/generated.ts), and test/e2e/answer-checks.test.ts
 * holds a test per row: the plausible answer (shown with a warning, or decided) and the lie (refused
 * where it could mislead).
 *
 * The rule (issue 33): a doubt blocks only what it could make wrong.
 * - A read command refuses only an answer it cannot read (a transport failure, a status other than
 *   200, a body that is not JSON, a top-level value of another type than the spec gives, a key with
 *   two values); everything else is shown as it came, with one warning line per kind of doubt.
 * - `--all` promises every item: a listing its own answers prove incomplete or doubled is refused.
 * - The gate decides on what it can prove: a doubt that could hide a breaking issue stops a PASS
 *   (exit 7 naming it), a proven FAIL stands, a doubt that cannot hide one is a warning.
 * - A bulk action never acts on an item outside the filter that found it: it is skipped and listed.
 *
 * Where a check rests on a relation the spec never states, its basis is `inferred` and its `why`
 * says the inference; so does the code that makes it (look for "inference:").
 */

/** What makes svc expect otherwise. */
export type Basis =
  /** The spec (or the field notes, where the spec says "not shown") states it. */
  | 'spec'
  /** The request asked for something the answer does not match. */
  | 'request'
  /** Pages of one listing disagree. */
  | 'pages'
  /** A field the spec lists is absent. */
  | 'absent'
  /** A relation the spec never states: svc infers it. */
  | 'inferred';

export const BASES: Readonly<Record<Basis, string>> = {
  spec: 'the spec',
  request: 'request vs answer',
  pages: 'between pages',
  absent: 'a field absent',
  inferred: 'inferred',
};

/**
 * Where an answer is used:
 * - `read`: a read command, one call (`issues search`, `stats ...`, `orgs list`, `svc api`: see below);
 * - `all`: `--all`, every page of a listing;
 * - `gate`: `svc gate` (its listing and its lookups);
 * - `bulk`: acting on data: a bulk action (`--where`, `--ids-from`), `issues triage`, any change and
 *   `scans start --wait`.
 */
export type Use = 'read' | 'all' | 'gate' | 'bulk';
export const USES: readonly Use[] = ['read', 'all', 'gate', 'bulk'];

/**
 * What svc does with a doubt:
 * - `refuse`: exit 7, the data not shown or used (the gate: no verdict, but a FAIL read before stands);
 * - `warn`: shown (or used) as it came; one warning line per kind on stderr (the gate: and in its summary);
 * - `stop`: the gate reads on, but reaches no PASS: exit 7 naming the doubt, unless a FAIL is proven;
 * - `count`: the gate counts the issue, fail closed, and names it (a warning);
 * - `pending`: the gate has no verdict yet: exit 8 (a wait polls on);
 * - `skip`: a bulk action does not act on the item; it is listed, and the run ends with exit 10.
 */
export type Action = 'refuse' | 'warn' | 'stop' | 'count' | 'pending' | 'skip';

export interface AnswerCheck {
  /** What is doubted, as a noun phrase ("an issue of a status the search did not ask for"). */
  doubt: string;
  basis: Basis;
  /** Why svc expects otherwise: the spec's words, the request field, or the inference, named as one. */
  why: string;
  /** What svc does, per use (a use not named: the check does not apply there). */
  on: Partial<Record<Use, Action>>;
  /** A plausible answer of a real service that trips it, and what the user gets. */
  plausible?: string;
  /** The lie it guards against: where refusing (or stopping) protects the user. */
  lie?: string;
}

/** The rows, by id. The order is the doc's. */
function makeChecks() {
  return {
    // --- Any answer -------------------------------------------------------------------------------
    'status': {
      doubt: 'a status other than 200 (a 1xx or 3xx as the final answer, 201, 202, 203, 204, 206)',
      basis: 'spec',
      why: 'the spec: "Success status is 200 with a JSON body"; a 202 to a change says it may not be done, a 206 is partial, a 3xx is never followed (the token stays with the base URL)',
      on: { read: 'refuse', all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'a proxy answering 206 Partial Content with page 1 of a listing',
    },
    'not-json': {
      doubt: 'a body that is not JSON (an HTML page, a truncated body, a compressed body svc did not ask for)',
      basis: 'spec',
      why: 'the spec: every answer is "application/json"',
      on: { read: 'refuse', all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'a captive portal\'s login page with status 200',
    },
    'top-level': {
      doubt: 'a top-level value of another type than the spec or the field notes give (a list where an object is documented, null)',
      basis: 'spec',
      why: 'the spec (or the field notes) give each answer\'s type: there is nothing of it to show or count',
      on: { read: 'refuse', all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: '`null` or `[]` for an issue search',
    },
    'too-deep': {
      doubt: 'an answer nested more than 1000 levels of lists and objects deep',
      basis: 'spec',
      why: 'no record of the spec nests beyond a few levels, and no renderer (JSON, a table, --jq) can walk 1000',
      on: { read: 'refuse', all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'an answer built to overflow the stack',
    },
    'key-twice': {
      doubt: 'a key given twice in one object with two different values',
      basis: 'spec',
      why: 'JSON (RFC 8259, section 4): names should be unique; JSON.parse keeps the last value and says nothing, so which value the service meant cannot be told',
      on: { read: 'refuse', all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'an issue with `"score": 95, ..., "score": 5` (the harmless last one would be read)',
    },
    'key-repeated': {
      doubt: 'a key given twice in one object with the same value',
      basis: 'spec',
      why: 'JSON (RFC 8259, section 4): names should be unique; both say the same, so nothing is lost',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: 'a serializer that writes `"totalCount": 5` twice: shown, with a warning',
    },
    'error-beside-data': {
      doubt: 'an error beside the data: an `error` that is not empty, a non-empty `errors`, or `success: false`',
      basis: 'inferred',
      why: 'inference: the field notes give errors as `{ "error": ... }` with a status other than 2xx; beside data it may say the data is partial ("shard down"). `"error": ""`, `null`, `false`, `[]`, `{}` and `success: true` say there is none',
      on: { read: 'warn', all: 'warn', gate: 'stop', bulk: 'warn' },
      plausible: '`"error": ""` beside complete data: no doubt at all; `"error": "index degraded"` beside data: shown, with a warning',
      lie: '`"error": "partial results"` beside a page of open issues: the gate reaches no PASS on it',
    },
    'shape': {
      doubt: 'a field of the documented record missing or of another type (a repository without `url`, a scan\'s `finished` a string)',
      basis: 'spec',
      why: 'the spec\'s records (and the field notes\'): the fields svc decides on have rows of their own below',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: 'a repository record without `url`: shown as it came, with a warning',
    },
    'ok-unreadable': {
      doubt: '`ok` missing or not a boolean in the answer of a change (an OkResponse)',
      basis: 'spec',
      why: 'the spec: an OkResponse is `{ "ok": true }` on success; without it the change may or may not have been made (`"ok": false` is the service saying it was not: exit 5)',
      on: { bulk: 'refuse' },
      lie: '`{}` answering an archive: that id counts as failed (exit 7), never as done',
    },
    // --- Listings ---------------------------------------------------------------------------------
    'items-key': {
      doubt: 'a listing\'s items under another key than the spec or the field notes give (`scans` for `codeScans`)',
      basis: 'absent',
      why: 'the spec gives `issues`, the field notes `codeScans`; inference: an answer whose only list is under another key holds the items there',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: '`scans list` answered `{ "scans": [...], "totalCount": 3 }`: shown (a table\'s or CSV\'s rows are its `scans`); --all and the gate read `scans`, with a warning',
      lie: 'an answer with no list at all, or two: --all, the gate and bulk refuse it (there is no item to read)',
    },
    'items-null': {
      doubt: 'a listing whose items are `null` or absent, with `totalCount` 0',
      basis: 'absent',
      why: 'the spec gives a list; inference: `null` (how a Go service writes an empty list) or no list beside a total of 0 is an empty listing. With a total above 0 it is refused: the items cannot be read',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: '`{ "issues": null, "totalCount": 0, ... }`: no results, with a warning; the gate decides on no issues',
      lie: '`{ "issues": null, "totalCount": 3 }`: refused (the 3 cannot be read)',
    },
    'no-total': {
      doubt: 'a listing without `totalCount`, or with one that is not a whole number',
      basis: 'absent',
      why: 'the spec lists `totalCount` (an integer) in the search answer; without it no listing can be shown to be complete',
      on: { read: 'warn', all: 'warn', gate: 'stop', bulk: 'warn' },
      plausible: '`--all` reads pages until a short one and says it could not check completeness',
      lie: 'a listing that leaves out its total: the gate reaches no PASS on it (a FAIL it reads stands)',
    },
    'past-total': {
      doubt: 'items on the page after the last one `totalCount` implies (the last page was full)',
      basis: 'inferred',
      why: 'inference: the spec gives `totalCount` without saying what it counts; svc reads it as the matches of the whole listing, and reads the page after a full last page to see that none follow. Items there say it counts less (the page, or a capped page): the rest is read as a listing without a total',
      on: { all: 'warn', gate: 'stop', bulk: 'warn' },
      plausible: '`totalCount: 100` on a full page of 100 (the service\'s cap) when 150 exist: --all reads on until a short page, with a warning',
      lie: 'a total that counts only the page: the gate reaches no PASS on it (a FAIL it reads stands)',
    },
    'no-counts': {
      doubt: 'a gate listing of more than one page with neither `totalCountAllCategories` nor `categoryCounts` beside `totalCount`',
      basis: 'absent',
      why: 'the spec lists both; without them a change while the pages are read that keeps `totalCount` (an issue patched while another is opened) cannot be seen',
      on: { gate: 'stop' },
      plausible: 'a service that ignores `getCounts`: one page is decided; several pages with a breaking issue read are a FAIL',
      lie: 'a listing that changes while the gate reads it: no PASS',
    },
    'counts-above-total': {
      doubt: '`categoryCounts` of the statuses asked for adding up to more than `totalCount` (or than the issues read): counts say more exist than were listed',
      basis: 'inferred',
      why: 'inference: the spec does not say over what `categoryCounts` count; svc reads them as counting the search\'s scope. A service that counts them over a wider scope (the organization) says so with the gate\'s setting `--counts wide` (policy file: `counts: wide`), recorded in the summary and in -o json. `totalCountAllCategories` counts every status and is no such evidence',
      on: { read: 'warn', all: 'warn', gate: 'stop', bulk: 'warn' },
      plausible: '`totalCount 2, categoryCounts {open 15, ...}` for `--types open`: `issues search` shows the 2 with a warning; the gate is exit 7 naming both counts and `--counts wide`, or exit 1 when a breaking issue was read',
      lie: 'a service that lists 2 of 15 open issues: the gate never passes on the 2',
    },
    'counts-below-total': {
      doubt: '`categoryCounts` of the statuses asked for adding up to less than `totalCount`',
      basis: 'inferred',
      why: 'inference, as above; fewer counted than listed hides nothing: every listed issue is read',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: 'counts of another moment than the list: shown, decided, with a warning',
    },
    'count-absent': {
      doubt: 'a status asked for left out of `categoryCounts` (read as 0)',
      basis: 'absent',
      why: 'the spec gives a count per status; inference: a service that leaves out zero counts means 0',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: '`categoryCounts {patched 5}` without `open`: read as 0, with a warning',
    },
    'count-unreadable': {
      doubt: 'a count that is not a whole number (`totalCountAllCategories`, a `categoryCounts` value, `categoryCounts` not an object)',
      basis: 'spec',
      why: 'the spec: the counts are integers; one that is not is left out of every comparison',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: '`"totalCountAllCategories": "25"`: shown, with a warning',
    },
    'all-below-total': {
      doubt: '`totalCountAllCategories` smaller than `totalCount`',
      basis: 'inferred',
      why: 'inference from its name: it counts the issues of every status, so at least those of the statuses asked for; it decides nothing (every listed issue is read)',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: 'a total of all categories computed at another moment: shown, with a warning',
    },
    'over-total': {
      doubt: 'a page holding more items than `totalCount`',
      basis: 'inferred',
      why: 'inference: `totalCount` counts the matches of the whole listing, so a page cannot hold more',
      on: { read: 'warn', all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      plausible: 'one page shown as it came, with a warning',
      lie: 'a total too small, so that pages past it are never read: --all and the gate refuse it',
    },
    'over-page-size': {
      doubt: 'a page holding more items than the page size asked for',
      basis: 'request',
      why: 'the request\'s `pageSize`: pages counted from it would overlap',
      on: { read: 'warn', all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      plausible: 'a service with a larger fixed page: one page shown, with a warning',
      lie: 'pages that overlap: an --all or a gate count would be wrong',
    },
    'current-page': {
      doubt: '`currentPage` other than the page asked for',
      basis: 'inferred',
      why: 'inference: `currentPage` echoes the request\'s `page`; a 0-based number says the same page. Pages that really repeat are caught by `id-twice`',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: '`currentPage: 0` for page 1: shown and counted, with a warning',
    },
    'page-size-capped': {
      doubt: 'page 1 of another length than asked, with the answer\'s `pageSize` saying it is the service\'s page size (a cap, or a minimum)',
      basis: 'request',
      why: 'the request\'s `pageSize` against the answer\'s: the service pages by its own size; the rest is read at it',
      on: { all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: '`--page-size 500` answered 100 a page with `pageSize: 100`, or `--page-size 5` answered 10 with `pageSize: 10`: read at the service\'s size, with a warning',
    },
    'page-cap-unstated': {
      doubt: 'page 1 shorter than asked with more items after it (fewer than `totalCount`; without a total, page 2 asked at page 1\'s length holds more), and no other page size stated (`pageSize` absent, or the size asked)',
      basis: 'inferred',
      why: 'inference: the spec sets no upper bound on `pageSize` and the field notes see clients ask up to 500; a service that caps a page (at 100, say) without saying so answers page 1 with its cap. Page 1 is the same whatever the size (it starts at the first item), so the rest is asked for at page 1\'s length, where no cap applies (without a total, page 2 at that length is asked for to tell a cap from a last page): a service that pages otherwise (items left out of a page) shows as items missing or seen twice, refused as those',
      on: { all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: '`svc gate` (500 a page) against a service that answers 100 of `totalCount: 250` with `pageSize: 500`: pages 2 and 3 are read at 100, with a warning (it was exit 7 "try --page-size 100")',
      lie: 'a short page 1 that is not a cap (a service leaving items out of the pages it numbers by the size asked): read on at its length, the pages then miss or repeat items, and the listing is refused',
    },
    'total-changed': {
      doubt: '`totalCount` that changes between pages',
      basis: 'pages',
      why: 'one listing has one total: an issue came or went while it was read, so one may have moved past a page boundary unread',
      on: { all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'an issue archived between page 1 and page 2 (one open issue shifts forward unread)',
    },
    'counts-changed': {
      doubt: '`totalCountAllCategories` or a `categoryCounts` value that changes between pages',
      basis: 'pages',
      why: 'they describe the whole listing: a change says it changed while it was read, though `totalCount` stayed',
      on: { all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'an open issue patched while another is opened: `totalCount` stays, `categoryCounts` moves',
    },
    'page-short': {
      doubt: 'a page holding fewer or more items than `totalCount` and the page size imply, or a listing that ends short of it',
      basis: 'pages',
      why: 'with a total and a page size every page\'s length is known: another length means items were missed or doubled',
      on: { all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'a page 2 of 3 issues where 500 were due',
    },
    'id-twice': {
      doubt: 'an item id on two pages of one listing',
      basis: 'pages',
      why: 'the order shifted between pages, so another item was missed',
      on: { all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'a service that ignores `page` and sends page 1 again',
    },
    'page-repeated': {
      doubt: 'a page that starts with the previous page\'s first item (without `totalCount`), or with page 1\'s',
      basis: 'pages',
      why: 'the service ignores the page number: reading on would never end, or double every item',
      on: { all: 'refuse', gate: 'refuse', bulk: 'refuse' },
      lie: 'a service without paging answering every page with page 1',
    },
    // --- Items ------------------------------------------------------------------------------------
    'item-not-record': {
      doubt: 'an item of a listing that is not an object',
      basis: 'spec',
      why: 'the spec: the items are records; this one has no field to read',
      on: { read: 'warn', all: 'warn', gate: 'stop', bulk: 'skip' },
      plausible: 'shown as it came, with a warning',
      lie: 'an issue the gate could not count: no PASS',
    },
    'item-no-id': {
      doubt: 'an item without an id (or with an empty one)',
      basis: 'spec',
      why: 'the spec gives every issue an `id`; without one it cannot be acted on, matched to a baseline, or shown to be listed once',
      on: { read: 'warn', all: 'warn', gate: 'stop', bulk: 'skip' },
      plausible: 'shown as it came, with a warning; the gate counts it',
      lie: 'an issue the gate cannot tell from another: no PASS (it is counted, so a FAIL stands)',
    },
    'item-id-field': {
      doubt: 'an item without its id field that names itself in another (`issueId` in an issue search, `id` in a scan list)',
      basis: 'inferred',
      why: 'the spec gives an issue `id`; the field notes name an issue `issueId` in the bodies that act on one, and say a started scan is `{ scanId }` with some clients falling back to `id`. Inference: an item without `id` that gives `issueId`, or a scan without `scanId` that gives `id`, names itself there (as an organization record with `organizationId`)',
      on: { read: 'warn', all: 'warn', gate: 'warn', bulk: 'warn' },
      plausible: 'issues search items `{ "issueId": "iss_1", ... }`, scans list items `{ "id": "s1", ... }`: JSON as they came, a table and CSV show the id in its column; --all, the gate and --where read the id there (a doubled listing is still caught; the gate decides and names the issues by it), with a warning',
    },
    'item-status-other': {
      doubt: 'an issue of a status the search did not ask for (`types`; top issues: `type`), a status the spec knows',
      basis: 'request',
      why: 'the request\'s `types` (or `type`): the service ignored or widened the filter',
      on: { read: 'warn', all: 'warn', gate: 'count', bulk: 'skip' },
      plausible: '`--types open` answered an issue in `processing` (being re-validated), `top-issues --type patched` an issue still `open` (patch not merged): shown, with a warning; the gate counts it (a `processing` issue of score 95 is a FAIL) and names it',
      lie: 'a service that ignores `types`: `issues archive --where types=open --yes` gets a `patched` issue back, and never archives it (skipped, listed, exit 10)',
    },
    'item-status-unknown': {
      doubt: 'an issue whose status is a word svc does not know (`Open`, `reopened`, a look-alike letter) or not a string',
      basis: 'spec',
      why: 'the spec\'s seven statuses and the field notes\' `notExploitable`: with another word, what the `types` filter left out cannot be told',
      on: { read: 'warn', all: 'warn', gate: 'stop', bulk: 'skip' },
      plausible: 'shown as it came, with a warning; the gate counts it (a FAIL stands)',
      lie: '`"status": "оpen"` (a Cyrillic o) in a gate that would otherwise pass: no PASS',
    },
    'item-status-absent': {
      doubt: 'an issue without a status',
      basis: 'absent',
      why: 'the spec gives every issue a `status`; one without is counted as open (the search returns open ones by default)',
      on: { gate: 'count' },
      plausible: 'counted as open, named',
    },
    'item-foreign': {
      doubt: 'an item of a repository, organization or project the request did not ask for (in `scans list`, another scan id too)',
      basis: 'request',
      why: 'the request\'s `repositoryIds`, `organizationId`, `projectId` (`scanId`): the service ignored the filter, so the listing is another scope\'s',
      on: { read: 'warn', all: 'warn', gate: 'stop', bulk: 'skip' },
      plausible: 'shown as it came, with a warning',
      lie: 'a gate on repository A answered issues of repository B: not counted, no PASS (a FAIL read in scope stands)',
    },
    'item-outside-scope': {
      doubt: 'an issue or scan of a repository that is not one of the scope\'s (`repositories list` of the organization or project), or an issue without a `repositoryId` whose `repositoryName` is another repository\'s',
      basis: 'request',
      why: 'the gate\'s scope against `repositories list`: issues and scans carry no `organizationId`, so their repository shows whether the scope was honoured',
      on: { gate: 'stop' },
      lie: 'issues of another organization\'s repository: not counted, no PASS',
    },
    'item-filter-unshown': {
      doubt: 'an item that does not show a field a filter of the request asked about (`status` under `types`, `repositoryId` under `repositoryIds`, `codeScan.id` under `scanId`...): absent, or `null`',
      basis: 'absent',
      why: 'the spec\'s Issue record lists the field; without it whether the service applied the filter cannot be shown, so acting on the item could act on one the filter did not find (a read shows it, and the gate counts it as it is: it hides nothing there)',
      on: { bulk: 'skip' },
      lie: 'a service that ignores `types` and leaves `status` out (or null): `issues archive --where types=open --yes` never archives those issues (skipped, listed, exit 10)',
    },
    'item-other-scan': {
      doubt: 'an issue that names another scan than the `scanId` asked for',
      basis: 'request',
      why: 'the request\'s `scanId` against the issue\'s `codeScan.id`; inference: a re-detected issue may keep the scan that first found it',
      on: { read: 'warn', all: 'warn', gate: 'count', bulk: 'skip' },
      plausible: '`issues search --scan-id B` holding an issue re-detected by B that still names scan A: shown, with a warning; the gate counts it',
    },
    'item-other-rule': {
      doubt: 'an issue of another rule than the `ruleId` asked for',
      basis: 'request',
      why: 'the request\'s `ruleId` against the issue\'s `naturalLanguageRuleViolation.ruleId`',
      on: { read: 'warn', all: 'warn', gate: 'count', bulk: 'skip' },
      plausible: 'shown, with a warning; the gate counts it',
    },
    'item-other-filter': {
      doubt: 'an issue outside the search\'s other filters: a severity outside `severities` min..max, a language or vulnerability class not asked for',
      basis: 'request',
      why: 'the request\'s `severities`, `languages`, `vulnerabilityClasses` against the issue\'s `severity`, `language`, `vulnClass`',
      on: { read: 'warn', all: 'warn', gate: 'count', bulk: 'skip' },
      plausible: 'a class written in another case: shown, with a warning; never acted on by `--where`',
    },
    // --- What the gate decides on -----------------------------------------------------------------
    'score-absent': {
      doubt: 'an issue without a score',
      basis: 'absent',
      why: 'the spec lists `score` in the issue record, not marked required; an issue without one cannot be placed at a level, so it is counted as critical (fail closed: a FAIL on it is a doubt counted, not a breach read; both fail the job)',
      on: { gate: 'count' },
      plausible: 'counted as critical, named',
    },
    'score-unreadable': {
      doubt: 'a score that is not a number from 0 to 100 (`null`, `"95"`, `-5`, `101`, `1e400`)',
      basis: 'spec',
      why: 'the spec: `score` is a number; the field notes: 0 to 100. Counted as critical (fail closed)',
      on: { gate: 'count' },
      plausible: '`score: null` beside an issue of score 95: both critical, the gate FAILs (exit 1), naming the null',
    },
    'created-unreadable': {
      doubt: 'with `--new-since`: a `createdAt` that is not an ISO 8601 date-time, or none',
      basis: 'spec',
      why: 'the spec: timestamps are ISO 8601 date-times; an issue whose date cannot be read is counted as new (fail closed)',
      on: { gate: 'count' },
      plausible: '`"createdAt": "2026-11-31T10:00:00Z"` (no such day): counted as new, named',
    },
    'created-no-zone': {
      doubt: 'with `--new-since`: a `createdAt` without a zone that is before the cut-off read as UTC, and after it in a zone west of UTC (up to 12 h)',
      basis: 'inferred',
      why: 'the spec says "ISO 8601 date-time", where a time without a zone is local time of a zone it does not name; svc reads it as UTC (inference), and counts as new (fail closed) one that another zone would make new',
      on: { gate: 'count' },
      plausible: '`"createdAt": "2026-03-10T10:00:00"` with `--new-since 2026-03-10T12:00:00Z`: counted as new, named; 13 h or more before it: not new',
    },
    // --- Stats ------------------------------------------------------------------------------------
    'severity-total': {
      doubt: '`issuesBySeverity` whose `total` is not the sum of `severityCounts`',
      basis: 'inferred',
      why: 'inference: the spec gives `total` beside the counts without saying what it counts; with `--severities` it may count every level',
      on: { read: 'warn' },
      plausible: '`--severities critical` answered `severityCounts {critical 3, ...}, total 20`: shown, with a warning',
    },
    // --- Lookups of the gate ------------------------------------------------------------------------
    'org-id-field': {
      doubt: 'an organization record with another id field than `id` (`organizationId`)',
      basis: 'inferred',
      why: 'the spec: the record\'s fields are "not shown"; the field notes: `{ id, name, role? }`. Inference: a record without `id` and with `organizationId` names itself there',
      on: { read: 'warn', gate: 'warn' },
      plausible: '`orgs list` answered `[{ "organizationId": "org_1", "name": "A" }]`: shown; the gate verifies org_1 by it, with a warning',
    },
    'record-no-id': {
      doubt: 'an organization or repository record without any id, where the gate verifies its scope',
      basis: 'spec',
      why: 'the spec gives a repository an `id` (the field notes an organization): without one, whether the scope exists cannot be shown',
      on: { gate: 'stop' },
      lie: 'a gate on an organization that cannot be shown to exist: no PASS',
    },
    'repository-url': {
      doubt: '`--repository URL`: `repositories list` gives the repository `resolve-by-url` named only other URLs',
      basis: 'request',
      why: 'two answers of the service contradict each other: the gate would judge another repository',
      on: { gate: 'refuse' },
      lie: 'a resolver that maps every URL to one repository',
    },
    'rule-no-count': {
      doubt: '`--rule-id`: the issue search of any status gives no count and no list',
      basis: 'absent',
      why: 'the API has no rule lookup: only a search that found something shows the rule exists',
      on: { gate: 'refuse' },
      lie: 'a misspelt rule id that matches nothing: no verdict on nothing',
    },
    // --- Scans ------------------------------------------------------------------------------------
    'scan-twice': {
      doubt: 'a scan listed twice in an answer for its id',
      basis: 'inferred',
      why: 'inference: one scan id names one scan; two records of it (say completed and running) cannot be told apart',
      on: { gate: 'refuse', bulk: 'refuse' },
      lie: 'a record `completed` beside one `running` for the scan the gate is scoped to',
    },
    'scan-total': {
      doubt: 'an answer for one scan id whose `totalCount` is above the records it holds',
      basis: 'pages',
      why: 'the records not sent could hold the same scan again (a page 2 with it running)',
      on: { gate: 'refuse', bulk: 'refuse' },
      lie: 'the completed record on page 1 and a running one on page 2',
    },
    'scan-others': {
      doubt: 'a whole answer for one scan id that holds other scans beside it (the scan once)',
      basis: 'inferred',
      why: 'the field notes give `scanId` as a filter of `scans list`; inference: other scans beside the one asked for mean the service ignored the filter, and its one record is the scan (listed twice it is refused: scan-twice)',
      on: { gate: 'warn', bulk: 'warn' },
      plausible: '`--scan-id scan_1` answered `{ codeScans: [scan_1 completed, scan_9 ...], totalCount: 2 }`: scan_1 is judged, with a warning',
    },
    'scan-no-id': {
      doubt: 'a scan record without an id, where one scan is looked for',
      basis: 'absent',
      why: 'the field notes give a scan `scanId` (or `id`): a record without one cannot be told from the scan looked for',
      on: { gate: 'refuse', bulk: 'refuse' },
      lie: 'an anonymous record `completed` in the answer for a running scan',
    },
    'scan-flags-disagree': {
      doubt: 'a scan whose status word and finished flags disagree (`running` with `finished: true`, `completed` with `codeScanFinished: false`), the two flags apart, or a flag that is not a boolean',
      basis: 'spec',
      why: 'the field notes: `completed` or `finished` means done, and so do the `finished`/`codeScanFinished` flags; when they disagree the scan is taken as still running',
      on: { gate: 'pending', bulk: 'pending' },
      lie: 'a scan `running` with `finished: true`: no verdict yet (exit 8; --wait polls on)',
    },
    'scan-word-done': {
      doubt: 'a scan status word other than the field notes\' two: a common word for done (`complete`, `done`, `succeeded`, `success`, `successful`) that no finished flag contradicts, or another word where the finished flags present all say done',
      basis: 'inferred',
      why: 'the field notes name `completed` and `finished`; inference: a common word for done means done, and the flags say what another word means',
      on: { gate: 'warn', bulk: 'warn' },
      plausible: '`"status": "succeeded", "finished": true`: done, with a warning; the gate decides',
    },
    'scan-word-unknown': {
      doubt: 'a scan status word svc does not know, with no finished flag',
      basis: 'inferred',
      why: 'the field notes name `completed` and `finished` (done); svc also takes complete, done, succeeded, success and successful as done, and queued, pending, running, in_progress, started and scanning as still running (inference): another word says neither, so there is no verdict, and no exit 8 the service did not state',
      on: { gate: 'refuse', bulk: 'refuse' },
      lie: '`"status": "exploded"`: exit 7 naming the word, never a wait for ever',
    },
    'scan-message-done': {
      doubt: 'a completed scan carrying an `errorMessage`',
      basis: 'inferred',
      why: 'inference: the service said the scan completed (its word, or its flags); a message beside that is a warning about part of it (a file it could not parse), not a failure. A scan whose word is a failure, or that neither word nor flags say is done, with a message, has failed',
      on: { gate: 'warn', bulk: 'warn' },
      plausible: '`completed`, `finished: true`, `errorMessage: "1 file skipped: too large"`: the gate decides, with a warning',
    },
    'scan-started-no-id': {
      doubt: '`scans start --wait`: an answer without `scanId` (or `id`, or a `scanIds` list)',
      basis: 'absent',
      why: 'the field notes: `{ scanId }` (some clients fall back to `id`): there is no scan to wait for',
      on: { bulk: 'refuse' },
      lie: 'a start that says nothing of what it started',
    },
    'scan-id-unusable': {
      doubt: '`scans start --wait`: a scan id svc cannot wait on or print as the service wrote it: a number a double does not hold exactly, or text with a space, a control or an invisible character',
      basis: 'inferred',
      why: 'inference: a scan id the service means to be used holds no control or invisible character and fits a JSON number exactly (the field notes show `{ scanId }` only). The id is printed alone on stdout for scripts (`$(svc scans start ... --wait)`) and sent back to `scans list`: a rounded number names another scan, and an escape sequence acts on the terminal or the CI log',
      on: { bulk: 'refuse' },
      lie: '`{"scanId": "s1\\u001b]52;c;...\\u0007"}` (a clipboard write), or `{"scanId": 12345678901234567890}`: exit 7, nothing printed',
    },
    'commit-scan-short': {
      doubt: '`--commit` (scans found by the issues naming the commit): an issue naming the commit that the service does not list for those scans (`scanId`), where both listings pass but their counts added together break a `--max` threshold',
      basis: 'inferred',
      why: 'inference: `codeScan` names the scan that first found an issue, or the one that last did (the spec does not say), and a scan\'s listing holds what it found: both listings are issues of the commit, a FAIL of either stands, and their union holds no more than both counts added',
      on: { gate: 'stop' },
      plausible: 'an issue naming the commit that its scan\'s listing leaves out, beside one that listing holds: both pass, and so do their counts added together: decided, with a warning',
      lie: 'the same with `--max-total 1`: the two together could be 2: no PASS (a FAIL of either stands)',
    },
    'commit-scan-unknown': {
      doubt: '`--commit`: issues name a scan of the commit that `scans list` does not know, or one without a scan id',
      basis: 'inferred',
      why: 'inference: the scan an issue names is listed by `scans list` (field notes); otherwise whether it has finished cannot be shown, which could only hide issues it has yet to list: a breaking issue of the commit already read stands',
      on: { gate: 'stop' },
      lie: 'a commit whose scan is still running but unlisted: no PASS (a FAIL read of the commit stands)',
    },
  } as const satisfies Record<string, AnswerCheck>;
}

let made: ReturnType<typeof makeChecks> | undefined;
/**
 * The table, made when first read: when an answer raises a doubt, or the doc is written. A call
 * whose answers raise none does not make it (a table of many keys costs ~1 M instructions to make
 * the first time, docs/performance.md).
 */
export const checkTable = (): ReturnType<typeof makeChecks> => (made ??= makeChecks());

export type CheckId = keyof ReturnType<typeof makeChecks>;

/** Every check's id, in the doc's order. */
export const checkIds = (): CheckId[] => Object.keys(checkTable()) as CheckId[];

/** The row of `id`. */
export function checkOf(id: CheckId): AnswerCheck {
  return checkTable()[id];
}

/** What svc does with a doubt of `id` in `use` (undefined: the check does not apply there). */
export function actionOf(id: CheckId, use: Use): Action | undefined {
  return (checkTable()[id] as AnswerCheck).on[use];
}
