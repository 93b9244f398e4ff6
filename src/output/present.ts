/**
 * The one presenter: data of a command, shown in this run's format (-o/--json/SVC_OUTPUT/profile),
 * with the user's --columns or the command's default columns, on this run's terminal.
 */
import type { Context } from '../context.js';
import type { Format } from './formats.js';
import { render } from './render.js';

/** `--columns a, b,,c` -> ['a', 'b', 'c']; without --columns, the command's defaults. */
export function chosenColumns(ctx: Pick<Context, 'globals'>, defaults: string[]): string[] {
  const chosen = ctx.globals.columns;
  return chosen ? chosen.split(',').map((c) => c.trim()).filter(Boolean) : defaults;
}

export interface Presentation {
  /** Default columns (dot paths into a row). */
  columns: string[];
  /** Where the rows of a table live in the data (`issues`); default: the data itself. */
  rows?: string;
  /** A format other than the run's (commands whose default is for people even in a pipe). */
  format?: Format;
}

export async function present(ctx: Context, data: unknown, p: Presentation): Promise<void> {
  await render(data, {
    format: p.format ?? ctx.format(),
    columns: chosenColumns(ctx, p.columns),
    rowsPath: p.rows,
    pretty: ctx.io.stdoutIsTTY,
    color: ctx.color,
    width: ctx.io.columns,
  }, { out: ctx.out, note: ctx.note });
}
