export { toSarif } from './sarif.js';
export { toJunit, toJunitError } from './junit.js';
export { toMarkdown, toMarkdownError } from './markdown.js';
