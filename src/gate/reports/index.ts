export { toSarif, type SarifLog, type SarifOptions } from './sarif.js';
export { toJunit, toJunitError } from './junit.js';
export { toMarkdown, toMarkdownError } from './markdown.js';
export { toAnnotations } from './annotations.js';
export { writeFileAtomic } from '../../output/write-file.js';
