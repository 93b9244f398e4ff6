export { toSarif, type SarifLog, type SarifOptions } from './sarif.js';
export { toJunit } from './junit.js';
export { toMarkdown } from './markdown.js';
export { toAnnotations } from './annotations.js';
export { writeFileAtomic } from './write.js';
