/** Demo 隐私政策 and 用户协议, each with its published version (and one older draft of the policy). */
import type { Executor } from '../../db/client.ts';
import { csrAgreements } from '../../db/schema.ts';

const privacy = (version: string) =>
  `<h2>隐私政策（${version}）</h2><p>我们重视您的个人信息保护。本政策说明我们如何收集、使用、存储和保护您在使用联合办公服务时提供的信息。</p><h3>一、我们收集的信息</h3><ul><li>注册时提供的手机号与昵称；</li><li>实名认证时提供的姓名与身份证号（仅用于核验，列表中脱敏展示）；</li><li>预订、开门与支付记录。</li></ul><h3>二、信息的使用</h3><p>上述信息仅用于提供预订、门禁、开票和客户服务，不会出售给任何第三方。</p><h3>三、联系我们</h3><p>如有疑问，请发送邮件至 <a href="mailto:privacy@example.com">privacy@example.com</a>。</p>`;

export default async function seedAgreements(tx: Executor) {
  await tx.insert(csrAgreements).values([
    { type: 'privacy', title: '隐私政策', version: 'v1.0', content: privacy('v1.0'), published: false },
    { type: 'privacy', title: '隐私政策', version: 'v1.1', content: privacy('v1.1'), published: true },
    {
      type: 'user',
      title: '用户协议',
      version: 'v1.0',
      content:
        '<h2>用户协议</h2><p>欢迎使用我们的联合办公服务。注册即表示您同意遵守本协议及各楼宇的<strong>空间使用规则</strong>。</p><ol><li>会员卡、会议卡仅限本人或本企业使用，不得转让。</li><li>预订的会议室与场地请按时使用，超时将按规则计费。</li><li>请爱护公共设施，损坏需照价赔偿。</li></ol>',
      published: true,
    },
  ]);
}
