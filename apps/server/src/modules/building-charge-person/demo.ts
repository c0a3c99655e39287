/** Demo 楼宇负责人: one or two managers per city, together covering every demo building. */
import type { Executor } from '../../db/client.ts';
import { buildingChargePersons, buildings } from '../../db/schema.ts';

export const after = ['building'];

export const demoChargePersons = [
  {
    name: '张敏',
    phone: '13811020301',
    email: 'zhangmin@kr-space.cn',
    buildings: ['氪空间·望京SOHO', '氪空间·国贸中心'],
  },
  { name: '李建国', phone: '13911020302', email: null, buildings: ['氪空间·中关村'] },
  {
    name: '王芳',
    phone: '13621030303',
    email: 'wangfang@wutongshu.cn',
    buildings: ['梧桐树·陆家嘴', '梧桐树·徐家汇'],
  },
  { name: '陈晓东', phone: '13723040304', email: 'chenxd@nanshan-maker.cn', buildings: ['创客汇·科技园'] },
  { name: '刘洋', phone: '15013050305', email: null, buildings: ['创客汇·福田CBD', '创客汇·科技园'] },
  { name: '赵雪', phone: '18657060306', email: 'zhaoxue@xihu-qishe.cn', buildings: ['栖舍·西溪'] },
];

export default async function seedChargePersons(tx: Executor) {
  const ids = new Map(
    (await tx.select({ id: buildings.id, name: buildings.name }).from(buildings)).map((b) => [b.name, b.id]),
  );
  await tx.insert(buildingChargePersons).values(
    demoChargePersons.map(({ buildings: names, ...person }) => ({
      ...person,
      buildingIds: names.map((name) => ids.get(name)!),
      published: true,
    })),
  );
}
