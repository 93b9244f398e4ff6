/**
 * A row's detail view, as data: how one record reads for a person (a heading, key/value lines,
 * long texts under them, what to do next). src/output/detail.ts draws any view.
 */
/** How a field's value is shown. */
type DetailShow =
  | 'text'
  /** A time: relative on a terminal, with the exact time after it. */
  | 'time'
  /** `score`: the level (coloured), the score and the severity. */
  | 'level'
  | 'status'
  /** `affectedFile:startLine-endLine`. */
  | 'location'
  /** A list of CWE ids, each with its link. */
  | 'cwes'
  /** `repositoryName (repositoryId)`. */
  | 'repository'
  /** A list or an object of counts: `open 3, patched 1`. */
  | 'counts'
  /** A number of days: `448 days`. */
  | 'days';

export interface DetailField {
  label: string;
  /** Dot path of the value (unused by `location` and `repository`). */
  path?: string;
  show?: DetailShow;
}

interface DetailSection {
  label: string;
  path: string;
  /**
   * `text` is wrapped to the terminal; `code` and `diff` keep their lines (a diff coloured); `table` is
   * a list of records; `chart` is a series of periods with counts by level (stacked bars, a legend and
   * the change over the range); `bars` is an object of counts, or a list of records, as bars.
   */
  show: 'text' | 'code' | 'diff' | 'table' | 'chart' | 'bars';
  /** The table's columns. */
  columns?: string[];
  /** `bars` of a list: the fields naming each record, the first present wins. */
  keys?: string[];
}

interface NextStep {
  /** What the step does; `{name}` is filled from the record, else the request. */
  text: string;
  /** The command line, with `{name}` placeholders. */
  cmd?: string;
  /**
   * Shown only when this path of the record has a value (`!path`: only when it has none; `path=a|b`:
   * only when it is one of these; `path!=a|b`: only when it is none of them); conditions joined by `&`.
   */
  when?: string;
}

export interface DetailView {
  /** The view is of the whole response, also when it holds a list of rows (which it shows as a section). */
  whole?: boolean;
  /**
   * A first line, e.g. `Patch approved`; `{path}` is filled from the record, else the request;
   * `{a||b}`: `a`, else `b`. A `{repositoryName...}` makes a table on a terminal name the request's
   * repository (commands/operation/run.ts).
   */
  heading?: string;
  /** Path of the record's title, shown bold as the first line. */
  title?: string;
  fields: DetailField[];
  sections?: DetailSection[];
  next?: NextStep[];
}
