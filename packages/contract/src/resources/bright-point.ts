/**
 * 设施配置 (building-bright-points): the highlights (亮点, e.g. 地铁直达) and facilities (设施, e.g.
 * 高速WiFi) a building shows; building screens pick them from `label-list`.
 */
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const brightPointKinds = [
  { value: 'highlight', label: '亮点' },
  { value: 'facility', label: '设施' },
] as const;
type BrightPointKind = (typeof brightPointKinds)[number]['value'];

export const brightPoint = defineResource({
  key: 'building-bright-points',
  base: `${prefixes.building}/building-bright-points`,
  label: '设施亮点',
  permission: 'system:facilities',
  fields: {
    kind: field.enumeration('类型', brightPointKinds),
    name: field.text('名称', { max: 30, search: 'like', unique: true, uniqueWithin: 'kind' }),
    iconUrl: field.image('图标', { help: '建议 64×64 的 PNG 或 SVG 图标' }),
    sort: field.sort(),
    published: field.published(),
  },
  defaultSort: { field: 'sort', order: 'ascend' },
});

/** `GET {base}/label-list?kind=`: the published highlights or facilities, in display order. */
export const brightPointLabelListPath = `${brightPoint.base}/label-list`;

/** One entry of `label-list`. */
export interface BrightPointLabel {
  id: number;
  kind: BrightPointKind;
  name: string;
  iconUrl: string | null;
  sort: number;
}
