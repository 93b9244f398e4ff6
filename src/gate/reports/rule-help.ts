/**
 * What a vulnerability class is and how to fix it, for the rule help of SARIF reports (the text the
 * code-scanning view shows beside an alert). Keyed by the class's slug; a class svc does not know
 * gets a generic text built from its CWEs. Plain facts from the CWE descriptions, no vendor text.
 */

interface ClassHelp {
  what: string;
  fix: string;
}

const HELP: Record<string, ClassHelp> = {
  'sql-injection': {
    what: 'Input from outside the program reaches an SQL query as query text, so it can change what the query does.',
    fix: 'Pass values as bound parameters (prepared statements) or through the query builder; never concatenate input into SQL. Validate identifiers against an allow-list.',
  },
  'cross-site-scripting': {
    what: 'Input reaches a web page without being encoded for its context, so a browser can run it as script.',
    fix: 'Encode output for its context (HTML, attribute, URL, script) with the template engine\'s escaping; avoid raw-HTML sinks; add a Content-Security-Policy.',
  },
  'path-traversal': {
    what: 'A file path built from input can leave the intended directory (`../`, absolute paths).',
    fix: 'Resolve the path and check that it stays inside the base directory; prefer ids mapped to files over names taken from input.',
  },
  'command-injection': {
    what: 'Input reaches an operating-system command line, so it can run other commands.',
    fix: 'Call programs with an argument list, without a shell; validate arguments against an allow-list.',
  },
  'server-side-request-forgery': {
    what: 'The server fetches a URL that input controls, so it can be made to reach internal services.',
    fix: 'Allow-list the hosts and schemes the server may reach; resolve and check the address before connecting; block link-local and private ranges.',
  },
  'insecure-deserialization': {
    what: 'Untrusted data is deserialized into objects, which can run code or change program state.',
    fix: 'Deserialize only plain data formats (JSON) into fixed types; never native object serialization of untrusted input; sign data that must round-trip.',
  },
  'hardcoded-secret': {
    what: 'A credential (password, token, key) is written in the source code.',
    fix: 'Revoke and rotate the secret, then load it from the environment or a secret store; keep secrets out of the repository history.',
  },
  'weak-cryptography': {
    what: 'A broken or weak algorithm, mode or key size protects data.',
    fix: 'Use current algorithms from the platform\'s crypto library (AES-GCM, SHA-256 or better, bcrypt/scrypt/argon2 for passwords) with sound key sizes.',
  },
  'xml-external-entity': {
    what: 'The XML parser resolves external entities, so a document can read local files or reach the network.',
    fix: 'Disable DTDs and external entity resolution in the parser settings.',
  },
  'open-redirect': {
    what: 'A redirect target comes from input, so a link on this site can send users to any site.',
    fix: 'Redirect only to relative paths or to an allow-list of hosts.',
  },
  'broken-access-control': {
    what: 'An action or record is reachable without checking that the caller may use it.',
    fix: 'Check authorization on the server for every request and every record id; deny by default.',
  },
  'prototype-pollution': {
    what: 'Input keys such as `__proto__` or `constructor` reach an object merge, changing every object of the program.',
    fix: 'Reject those keys, use objects without a prototype or Map for input data, and freeze prototypes where possible.',
  },
  'log-injection': {
    what: 'Input is written to logs unencoded, so it can forge log lines or attack log viewers.',
    fix: 'Encode or strip line breaks and control characters before logging; prefer structured logging.',
  },
  'insecure-randomness': {
    what: 'A predictable random number generator produces a value that must be secret (token, id, key).',
    fix: 'Use the platform\'s cryptographically secure generator for security values.',
  },
  'missing-authentication': {
    what: 'A function that needs an identity can be called without authentication.',
    fix: 'Require authentication for the endpoint or function, enforced on the server.',
  },
  'regular-expression-denial-of-service': {
    what: 'A regular expression can take exponential time on crafted input.',
    fix: 'Rewrite the pattern without nested or overlapping repetition, bound the input length, or use a linear-time regex engine.',
  },
  'vulnerable-dependency': {
    what: 'A dependency has a known vulnerability.',
    fix: 'Upgrade the dependency to a fixed version (or replace it); check the advisory for workarounds.',
  },
  'public-storage-bucket': {
    what: 'Infrastructure configuration makes a storage bucket readable or writable by anyone.',
    fix: 'Block public access on the bucket and grant access to named principals only.',
  },
};

/** Lower-case words joined by `-`: "SQL Injection" -> "sql-injection". */
export function slugOf(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

export function classHelp(slug: string): ClassHelp | undefined {
  return Object.prototype.hasOwnProperty.call(HELP, slug) ? HELP[slug] : undefined;
}

export function cweUrl(n: string): string {
  return `https://cwe.mitre.org/data/definitions/${n}.html`;
}
