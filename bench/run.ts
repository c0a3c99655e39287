/** `npm run bench`: each benchmark prints its measurement beside its reference and the ratio. */
import { apiOverhead } from './api.ts';
import { bundleSizes } from './bundle.ts';

const LOGIN_BUDGET_KB = 200;
const SHELL_BUDGET_KB = 350;
const fixed = (n: number, digits = 1) => n.toFixed(digits);

const { loginKb, shellKb } = bundleSizes();
console.log('Bundle (gzip -9 of the JavaScript and CSS the browser loads)');
console.log(
  `  login route       ${fixed(loginKb)} KB   budget ${LOGIN_BUDGET_KB} KB   ratio ${fixed(loginKb / LOGIN_BUDGET_KB, 2)}`,
);
console.log(
  `  shell after login ${fixed(shellKb)} KB   budget ${SHELL_BUDGET_KB} KB   ratio ${fixed(shellKb / SHELL_BUDGET_KB, 2)}`,
);

const api = await apiOverhead();
console.log(
  `\nAuthenticated GET sso-user/user-info (${api.engine}) vs a bare Fastify handler with the same JSON`,
);
console.log(`  bare handler  ${fixed(api.reference.rps, 0)} req/s   p99 ${api.reference.p99} ms`);
console.log(`  cowork-admin  ${fixed(api.measured.rps, 0)} req/s   p99 ${api.measured.p99} ms`);
console.log(`  ratio (ours / bare) ${fixed(api.measured.rps / api.reference.rps, 3)}`);
