/** Word lists the seeded data is drawn from. Plausible, never real: no real company or provider names. */

export interface VulnClass {
  name: string;
  cwes: string[];
  category: 'SAST' | 'SCA' | 'IAC' | 'SECRETS';
  /** Title template: {fn} function, {param} input name. */
  title: string;
  /** What the flaw lets an attacker do. */
  impact: string;
  /** Vulnerable line, C-like languages and script languages. */
  code: [string, string];
  /** Weight in the generated mix. */
  weight: number;
  /** Typical score range. */
  score: [number, number];
}

export const VULN_CLASSES: readonly VulnClass[] = [
  { name: 'SQL Injection', cwes: ['CWE-89'], category: 'SAST', weight: 9, score: [70, 99],
    title: 'SQL injection in {fn} through the {param} parameter', impact: 'read or modify any row of the database',
    code: ['const rows = await db.query("SELECT * FROM accounts WHERE id = " + req.query.{param});', 'cursor.execute("SELECT * FROM accounts WHERE id = %s" % request.args["{param}"])'] },
  { name: 'Cross-Site Scripting', cwes: ['CWE-79'], category: 'SAST', weight: 9, score: [40, 85],
    title: 'Reflected cross-site scripting in {fn}', impact: 'run script in the browser of another user',
    code: ['res.send("<p>Hello " + req.query.{param} + "</p>");', 'return "<p>Hello " + request.args["{param}"] + "</p>"'] },
  { name: 'Path Traversal', cwes: ['CWE-22'], category: 'SAST', weight: 6, score: [55, 95],
    title: 'Path traversal in {fn} lets {param} escape the upload folder', impact: 'read files outside the intended folder',
    code: ['const data = fs.readFileSync(path.join(UPLOADS, req.params.{param}));', 'data = open(os.path.join(UPLOADS, request.args["{param}"])).read()'] },
  { name: 'Command Injection', cwes: ['CWE-78'], category: 'SAST', weight: 4, score: [80, 100],
    title: 'OS command injection in {fn}', impact: 'run arbitrary commands on the server',
    code: ['exec("convert " + req.body.{param} + " out.png");', 'os.system("convert " + request.form["{param}"] + " out.png")'] },
  { name: 'Server-Side Request Forgery', cwes: ['CWE-918'], category: 'SAST', weight: 4, score: [60, 92],
    title: 'Server-side request forgery in {fn} via {param}', impact: 'make the server call internal addresses',
    code: ['const resp = await httpClient.get(req.query.{param});', 'resp = http_client.get(request.args["{param}"])'] },
  { name: 'Insecure Deserialization', cwes: ['CWE-502'], category: 'SAST', weight: 3, score: [70, 98],
    title: 'Untrusted data deserialized in {fn}', impact: 'execute code through crafted serialized objects',
    code: ['const obj = serializer.unserialize(req.body.{param});', 'obj = pickle.loads(base64.b64decode(request.form["{param}"]))'] },
  { name: 'Hardcoded Secret', cwes: ['CWE-798'], category: 'SECRETS', weight: 5, score: [50, 90],
    title: 'Hard-coded credential in {fn}', impact: 'use the leaked credential against the backing service',
    code: ['const apiKey = "sk_live_0000000000000000{param}";', 'API_KEY = "sk_live_0000000000000000{param}"'] },
  { name: 'Weak Cryptography', cwes: ['CWE-327', 'CWE-328'], category: 'SAST', weight: 5, score: [20, 65],
    title: 'Weak hash algorithm used in {fn}', impact: 'recover hashed values by brute force',
    code: ['const digest = crypto.createHash("md5").update({param}).digest("hex");', 'digest = hashlib.md5({param}.encode()).hexdigest()'] },
  { name: 'XML External Entity', cwes: ['CWE-611'], category: 'SAST', weight: 2, score: [55, 90],
    title: 'XML parser in {fn} resolves external entities', impact: 'read local files through crafted XML',
    code: ['const doc = xmlParser.parse(req.body.{param}, { resolveExternals: true });', 'doc = etree.fromstring(request.data, etree.XMLParser(resolve_entities=True))'] },
  { name: 'Open Redirect', cwes: ['CWE-601'], category: 'SAST', weight: 4, score: [15, 55],
    title: 'Open redirect in {fn} through {param}', impact: 'send users to a phishing page from a trusted link',
    code: ['res.redirect(req.query.{param});', 'return redirect(request.args["{param}"])'] },
  { name: 'Broken Access Control', cwes: ['CWE-639', 'CWE-284'], category: 'SAST', weight: 6, score: [60, 96],
    title: 'Missing ownership check in {fn} (insecure direct object reference)', impact: "read or change other users' records",
    code: ['const invoice = await Invoice.findById(req.params.{param});', 'invoice = Invoice.objects.get(id=kwargs["{param}"])'] },
  { name: 'Prototype Pollution', cwes: ['CWE-1321'], category: 'SAST', weight: 2, score: [35, 80],
    title: 'Prototype pollution in {fn} when merging {param}', impact: 'change the behaviour of every object in the process',
    code: ['deepMerge(settings, JSON.parse(req.body.{param}));', 'settings.update(json.loads(request.form["{param}"]))'] },
  { name: 'Log Injection', cwes: ['CWE-117'], category: 'SAST', weight: 3, score: [0, 30],
    title: 'Unsanitised {param} written to the log in {fn}', impact: 'forge log entries',
    code: ['logger.info("login failed for " + req.body.{param});', 'logger.info("login failed for " + request.form["{param}"])'] },
  { name: 'Insecure Randomness', cwes: ['CWE-330', 'CWE-338'], category: 'SAST', weight: 3, score: [25, 70],
    title: 'Predictable random value used for {param} in {fn}', impact: 'guess tokens meant to be secret',
    code: ['const {param} = Math.random().toString(36).slice(2);', '{param} = str(random.random())[2:]'] },
  { name: 'Missing Authentication', cwes: ['CWE-306'], category: 'SAST', weight: 3, score: [65, 97],
    title: 'Endpoint {fn} is reachable without authentication', impact: 'call an administrative function anonymously',
    code: ['router.post("/admin/{param}", adminController.{fn});', '@app.route("/admin/{param}", methods=["POST"])'] },
  { name: 'Regular Expression Denial of Service', cwes: ['CWE-1333'], category: 'SAST', weight: 2, score: [10, 50],
    title: 'Catastrophic backtracking in the {param} pattern of {fn}', impact: 'stall the server with one crafted input',
    code: ['const ok = /^(a+)+$/.test(req.query.{param});', 'ok = re.match(r"^(a+)+$", request.args["{param}"])'] },
  { name: 'Vulnerable Dependency', cwes: ['CWE-1104', 'CWE-937'], category: 'SCA', weight: 4, score: [30, 95],
    title: 'Dependency with a known vulnerability is reachable from {fn}', impact: 'exploit a published flaw of the library',
    code: ['import { parse } from "legacy-yaml"; // 2.1.0, known vulnerable', 'import legacy_yaml  # 2.1.0, known vulnerable'] },
  { name: 'Public Storage Bucket', cwes: ['CWE-732'], category: 'IAC', weight: 2, score: [40, 88],
    title: 'Storage bucket declared in {fn} is world-readable', impact: 'download every object of the bucket',
    code: ['acl = "public-read" # {fn}', 'acl = "public-read"  # {fn}'] },
];

interface Language {
  name: string;
  ext: string;
  /** Index into VulnClass.code: 0 C-like, 1 script. */
  style: 0 | 1;
  dirs: string[];
}

export const LANGUAGES: readonly Language[] = [
  { name: 'TypeScript', ext: 'ts', style: 0, dirs: ['src/routes', 'src/services', 'src/controllers', 'src/lib'] },
  { name: 'JavaScript', ext: 'js', style: 0, dirs: ['lib', 'server/routes', 'app/handlers'] },
  { name: 'Python', ext: 'py', style: 1, dirs: ['app/views', 'app/services', 'api', 'worker/tasks'] },
  { name: 'Java', ext: 'java', style: 0, dirs: ['src/main/java/com/example/web', 'src/main/java/com/example/service'] },
  { name: 'Go', ext: 'go', style: 0, dirs: ['internal/handlers', 'pkg/store', 'cmd/server'] },
  { name: 'Ruby', ext: 'rb', style: 1, dirs: ['app/controllers', 'app/models', 'lib/tasks'] },
  { name: 'C#', ext: 'cs', style: 0, dirs: ['Controllers', 'Services', 'Data'] },
  { name: 'PHP', ext: 'php', style: 0, dirs: ['src/Controller', 'src/Repository', 'public'] },
  { name: 'Kotlin', ext: 'kt', style: 0, dirs: ['src/main/kotlin/app/routes', 'src/main/kotlin/app/data'] },
];

/** Weight of each language in a repository's mix (same order as LANGUAGES). */
export const LANGUAGE_WEIGHTS = [24, 16, 20, 12, 10, 5, 5, 5, 3];

export const FILE_STEMS = [
  'accounts', 'auth', 'billing', 'checkout', 'download', 'export', 'feed', 'files', 'images', 'import', 'invoices', 'login',
  'media', 'orders', 'profile', 'reports', 'search', 'session', 'settings', 'upload', 'users', 'webhooks', 'admin', 'cart',
];

export const FUNCTIONS = [
  'getUserById', 'renderProfile', 'downloadFile', 'exportReport', 'handleUpload', 'createInvoice', 'searchOrders', 'login',
  'resetPassword', 'updateSettings', 'fetchPreview', 'importCsv', 'listInvoices', 'deleteAccount', 'redirectAfterLogin',
  'verifyWebhook', 'generateToken', 'resizeImage', 'loadTemplate', 'archiveOrder',
];

export const PARAMS = ['id', 'name', 'path', 'url', 'file', 'query', 'next', 'token', 'email', 'sort', 'filter', 'payload', 'template', 'callback'];

export const REPO_NAMES = [
  'payments-api', 'web-frontend', 'mobile-backend', 'billing-service', 'auth-gateway', 'data-pipeline', 'admin-portal',
  'notification-worker', 'search-service', 'inventory', 'checkout-web', 'reporting', 'infra-modules', 'customer-portal',
  'order-service', 'media-uploader', 'analytics-etl', 'partner-api', 'docs-site', 'feature-flags', 'ledger', 'identity',
  'shipping-rates', 'support-desk',
];

export const ORG_NAMES = ['Acme Platform', 'Acme Labs', 'Northwind Security', 'Globex Engineering', 'Initech Apps'];

export const AUTHORS = [
  'alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com', 'erin@example.com', 'frank@example.com',
  'grace@example.com', 'heidi@example.com', 'ivan@example.com', 'judy@example.com',
];

export const BRANCHES = ['develop', 'release/2.4', 'feature/new-checkout', 'fix/login-timeout', 'chore/deps'];

export const RULES = [
  { id: 'rule_no-raw-sql', name: 'No raw SQL outside the data layer' },
  { id: 'rule_pii-logging', name: 'Never log personal data' },
  { id: 'rule_authz-check', name: 'Every handler checks the caller\'s tenant' },
];

export const NO_LONGER_DETECTED_REASONS = ['Code removed', 'Fixed in a later commit', 'File deleted', 'Rule no longer applies'];

export const FALSE_POSITIVE_REASONS = ['Input is validated upstream', 'Test code only', 'Value is a constant', 'Not reachable from user input'];

export const UNPATCHABLE_REASONS = ['The fix needs a design change across services', 'Generated code: fix the generator', 'Third-party code vendored as is'];

export const TIMEZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Europe/London'];
