/** Checks of fitted help text (issue 36.7): lines a greedy fit would have filled, lists run together. */

/**
 * Lines a greedy fit would have filled (issue 36.7): a paragraph wrapped by hand and fitted again
 * breaks short (`counted and are listed as` / `suppressed (SARIF...`) and runs list items together.
 * A line B continues the line A above it when it hangs deeper than A, or at A's indent starts with a
 * lowercase word or `(` after a line that ends no sentence or heading; it must then not have fit on
 * A: A's length + 1 + B's first word (a command it names, whole, as the fitter keeps it) > width.
 */
export function underfilled(text: string, width: number): string[] {
  const bad: string[] = [];
  const lines = text.split('\n');
  const indent = (l: string) => /^ */.exec(l)![0].length;
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1];
    const b = lines[i];
    if (!a.trim() || !b.trim() || /[:.]$/.test(a.trim())) continue;
    const rest = b.trim();
    const continues = indent(b) > indent(a) || (indent(b) === indent(a) && /^[a-z(]/.test(rest));
    // A YAML key (a policy example) or a term standing alone above its description starts no paragraph's continuation.
    if (!continues || /^[a-z][\w-]*:( |$)/.test(rest) || (!/\S {2,}\S/.test(a) && indent(b) >= indent(a) + 4)) continue;
    // A term row's next row (`  -h, --help ...`, `  list   List the ...`, `  0  passed`, `  $ svc ...`) starts a new item.
    const row = /^ *\S(?:\S| (?! ))*? {2,}\S/;
    if (/^(-|\$ |# |\d+ {2})/.test(rest) || (indent(b) === indent(a) && row.test(a) && row.test(b))) continue;
    const shell = a.endsWith(' \\');
    const room = shell ? width - 2 : width;
    const used = shell ? a.length - 2 : a.length;
    const comment = /^ *# /.test(a) && /^ *# /.test(b);
    const words = (comment ? rest.slice(2) : rest).split(/ +/);
    // A command's next word, quotes kept whole as the shell reads them.
    let first = shell ? /^("[^"]*"|'[^']*'|\S+)/.exec(rest)![0] : words[0];
    // The fitter keeps a command it names whole (`svc scans list --scan-id X,`): so does this.
    if (/^[('`"]?svc$/.test(first)) {
      let end = 0;
      while (end + 1 < words.length && !/[;,)'`"][.:;,)]?$/.test(words[end])) end++;
      const unit = words.slice(0, end + 1).join(' ');
      if (unit.length <= room - indent(b) && end < 8) first = unit;
    }
    if (used + 1 + first.length <= room) bad.push(`${a}\n${b}`);
  }
  return bad;
}

/** Exit-code rows (`    7  the listing ...`) that hold a second code: a list run together. */
export function runTogether(text: string): string[] {
  return text.split('\n').filter((l) => /^ *\d{1,3} {2,}\S/.test(l) && / {2,}\d{1,3} {2,}[a-z]/.test(l.replace(/^ *\d{1,3} {2,}/, '')));
}
