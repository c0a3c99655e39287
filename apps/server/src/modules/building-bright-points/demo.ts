/** Demo 设施与亮点: what a Chinese coworking building typically offers. */
import type { Executor } from '../../db/client.ts';
import { buildingBrightPoints } from '../../db/schema.ts';

export default async function seedBrightPoints(tx: Executor) {
  const facilities = ['高速WiFi', '打印复印', '茶水间', '淋浴间', '停车场', '健身房', '电话亭', '母婴室'];
  const highlights = ['地铁直达', '24小时开放', '景观露台', '免费咖啡', '社群活动'];
  await tx.insert(buildingBrightPoints).values([
    ...facilities.map((name, i) => ({
      kind: 'facility' as const,
      name,
      sort: i + 1,
      published: name !== '母婴室',
    })),
    ...highlights.map((name, i) => ({
      kind: 'highlight' as const,
      name,
      sort: i + 1,
      published: name !== '社群活动',
    })),
  ]);
}
