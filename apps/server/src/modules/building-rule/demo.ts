/** Demo 行为项: the house rules buildings show to members. */
import type { Executor } from '../../db/client.ts';
import { buildingRules } from '../../db/schema.ts';

export default async function seedBuildingRules(tx: Executor) {
  await tx.insert(buildingRules).values([
    { name: '禁止吸烟', description: '室内全域禁烟，吸烟请前往指定区域。', sort: 1, published: true },
    { name: '宠物友好', description: '欢迎携带牵绳的小型宠物，请勿进入会议室。', sort: 2, published: true },
    { name: '保持安静', description: '开放工位区请调低音量，通话请前往电话亭。', sort: 3, published: true },
    { name: '垃圾分类', description: '请按可回收物、厨余垃圾和其他垃圾分类投放。', sort: 4, published: true },
    { name: '访客登记', description: '访客须在前台登记后由会员陪同进入。', sort: 5, published: false },
  ]);
}
