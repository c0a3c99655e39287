import { describe, expect, it } from 'vitest';
import {
  checkOptionalCreditCode,
  creditCodeCheckChar,
  creditCodeMessages,
  creditCodeProblem,
  isCreditCode,
} from '../src/credit-code.ts';
import { company } from '../src/resources/company.ts';

// Codes printed on real business licences (public registry entries).
const real = [
  '91110000802100433B', // 北京百度网讯科技有限公司
  '914403001922038216', // 华为技术有限公司
  '91110108551385082Q', // 小米科技有限责任公司
  '91440300708461136T', // 深圳市腾讯计算机系统有限公司
  '91330100799655058B', // 浙江天猫网络有限公司
  '91310000717866186P',
];

describe('统一社会信用代码 (GB 32100-2015)', () => {
  it('accepts real codes and computes their check character', () => {
    for (const code of real) {
      expect(isCreditCode(code)).toBe(true);
      expect(creditCodeCheckChar(code.slice(0, 17))).toBe(code[17]);
    }
  });

  it('refuses a wrong check character with its own message', () => {
    const [code] = real;
    const wrong = code.slice(0, 17) + (code[17] === 'A' ? 'C' : 'A');
    expect(creditCodeProblem(wrong)).toBe(creditCodeMessages.checkDigit);
    // One character changed in the body breaks the check too.
    const swapped = code.slice(0, 10) + (code[10] === '1' ? '2' : '1') + code.slice(11);
    expect(isCreditCode(swapped)).toBe(false);
  });

  it('refuses the wrong length and the letters the standard leaves out', () => {
    expect(creditCodeProblem('9111000080210043')).toBe(creditCodeMessages.shape);
    expect(creditCodeProblem('91110000802100433BB')).toBe(creditCodeMessages.shape);
    // I, O, Z, S and V are not used (they read like 1, 0, 2, 5 and U).
    expect(creditCodeProblem('91110000802100433O')).toBe(creditCodeMessages.shape);
    expect(creditCodeProblem('91110000802100433b')).toBe(creditCodeMessages.shape);
  });

  it('the form rule is optional and takes lower case as upper', () => {
    expect(checkOptionalCreditCode('')).toBeUndefined();
    expect(checkOptionalCreditCode(null)).toBeUndefined();
    expect(checkOptionalCreditCode('91110000802100433b')).toBeUndefined();
    expect(checkOptionalCreditCode('91110000802100433A')).toBe(creditCodeMessages.checkDigit);
  });

  it('the company schema stores it upper-cased and clears a blank one', () => {
    const schema = company.fields.creditCode.schema;
    expect(schema.parse(' 91110000802100433b ')).toBe('91110000802100433B');
    expect(schema.parse('')).toBeNull();
    const refused = schema.safeParse('91110000802100433A');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toBe(creditCodeMessages.checkDigit);
  });
});
