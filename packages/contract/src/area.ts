/**
 * Areas (basic: area/…, the address pickers): the administrative divisions of mainland China by their
 * GB/T 2260 six-digit codes, at three levels: province (省级), city (地级) and region (县级).
 * Read-only reference data served by apps/server/src/modules/area; the console picks one with
 * apps/web/src/components/AreaCascader.tsx.
 *
 * The endpoints, types, patterns and messages here are plain values, free of zod at run time, so
 * the console imports them without the schema library. The server's zod schemas come from
 * `areaSchemas(z)`, which is handed zod by its caller instead of importing it.
 *
 * What the data holds for the special cases (kept as the standard has them, not renamed):
 * - 北京、天津、上海 have one city-level entry, 市辖区 (110100, 120100, 310100); 重庆 has two,
 *   市辖区 (500100) and 县 (500200). Their districts hang below those.
 * - County-level units a province governs directly sit under a city-level grouping entry:
 *   省直辖县级行政区划 (419000 济源市; 429000 仙桃市、潜江市、天门市、神农架林区; 469000 五指山市 …)
 *   and 自治区直辖县级行政区划 (659000 石河子市 …).
 * - Cities without county-level divisions (东莞市 441900, 中山市 442000, 儋州市 460400,
 *   嘉峪关市 620200) have no regions: an address there stops at the city, regionCode null.
 * - 香港、澳门、台湾 are not included (the data set has no codes for them): 31 provinces.
 * `fullName` of area-info leaves the grouping entries out: 北京市朝阳区, 湖北省仙桃市.
 */
import type { z as Zod } from 'zod';
import { prefixes } from './endpoints.ts';

export const areaEndpoints = {
  /** GET: every province-level division (省、自治区、直辖市). */
  provinceList: `${prefixes.basic}/area/province-list`,
  /** GET `?provinceCode=440000`: the city-level divisions of a province. */
  cityList: `${prefixes.basic}/area/city-list`,
  /** GET `?cityCode=440300`: the county-level divisions (区、县、县级市…) of a city. */
  regionList: `${prefixes.basic}/area/region-list`,
  /** GET `?code=440305`: one area of any level with its chain of parents. */
  areaInfo: `${prefixes.basic}/area/area-info`,
} as const;

const AREA_LEVELS = ['province', 'city', 'region'] as const;
type AreaLevel = (typeof AREA_LEVELS)[number];

/** One area as every area endpoint lists it. */
export interface AreaRecord {
  /** GB/T 2260 code, six digits: 440000 (province), 440300 (city), 440305 (region). */
  code: string;
  name: string;
  level: AreaLevel;
  /** The code of the area one level up; null for a province. */
  parentCode: string | null;
}

/** area-info: the area itself, its province, city and region, and the chain from the top. */
export interface AreaInfo extends AreaRecord {
  provinceCode: string;
  provinceName: string;
  /** Null when the area is a province. */
  cityCode: string | null;
  cityName: string | null;
  /** Null unless the area is a region. */
  regionCode: string | null;
  regionName: string | null;
  /** The name as written in an address, without 市辖区 / 县 / 省直辖县级行政区划: 广东省深圳市南山区. */
  fullName: string;
  /** Province first, the area itself last. */
  chain: AreaRecord[];
}

/** A record's area fields, as forms and resources hold them. */
export interface AreaFields {
  provinceCode?: string | null;
  cityCode?: string | null;
  regionCode?: string | null;
}

/** Any area code: six digits, the first not 0. */
const AREA_CODE_PATTERN = /^[1-9]\d{5}$/;
/** A province's code ends in 0000. */
const PROVINCE_CODE_PATTERN = /^[1-9]\d0000$/;
/** A city's code ends in 00 but not in 0000. */
export const CITY_CODE_PATTERN = /^[1-9]\d(?!00)\d{2}00$/;

/** The level a well-formed code stands for, read from its trailing zeros. */
export function areaLevelOf(code: string): AreaLevel | undefined {
  if (!AREA_CODE_PATTERN.test(code)) return undefined;
  if (code.endsWith('0000')) return 'province';
  return code.endsWith('00') ? 'city' : 'region';
}

/** Chinese names of the area query fields, so a 400 names the field. */
export const areaFieldLabels = {
  provinceCode: '省份编码',
  cityCode: '城市编码',
  regionCode: '地区编码',
  code: '地区编码',
} as const;

/** What the area endpoints and the cascader say. `{code}` is replaced by the code asked for. */
export const areaMessages = {
  provinceCodeInvalid: '请填写 6 位省级行政区划代码（后四位为 0000），如 440000',
  cityCodeInvalid: '请填写 6 位地级行政区划代码（后两位为 00），如 440300',
  codeInvalid: '请填写 6 位行政区划代码，如 440305',
  provinceNotFound: '未找到编码为 {code} 的省份',
  cityNotFound: '未找到编码为 {code} 的城市',
  areaNotFound: '未找到编码为 {code} 的地区',
  placeholder: '请选择省/市/区',
} as const;

/** The server's zod schemas of the area queries and answers, built with the zod it passes in. */
export function areaSchemas(z: typeof Zod) {
  const code = (pattern: RegExp, message: string) =>
    z.string({ error: message }).trim().regex(pattern, { error: message });
  const areaRecord = z.object({
    code: z.string(),
    name: z.string(),
    level: z.enum(AREA_LEVELS),
    parentCode: z.string().nullable(),
  }) satisfies Zod.ZodType<AreaRecord>;
  const areaInfo = areaRecord.extend({
    provinceCode: z.string(),
    provinceName: z.string(),
    cityCode: z.string().nullable(),
    cityName: z.string().nullable(),
    regionCode: z.string().nullable(),
    regionName: z.string().nullable(),
    fullName: z.string(),
    chain: z.array(areaRecord),
  }) satisfies Zod.ZodType<AreaInfo>;
  return {
    areaRecord,
    areaInfo,
    cityListQuery: z.object({
      provinceCode: code(PROVINCE_CODE_PATTERN, areaMessages.provinceCodeInvalid),
    }),
    regionListQuery: z.object({ cityCode: code(CITY_CODE_PATTERN, areaMessages.cityCodeInvalid) }),
    areaInfoQuery: z.object({ code: code(AREA_CODE_PATTERN, areaMessages.codeInvalid) }),
  };
}
