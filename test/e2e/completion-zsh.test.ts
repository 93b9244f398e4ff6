// svc's zsh completion script, in a real zsh: see test/helpers/completion-cases.ts.
import { completionCases } from '../helpers/completion-cases.js';

completionCases('zsh');
