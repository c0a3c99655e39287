/**
 * 企业门禁组 (kreator-user-group, at /enterprise/accessControl): every company's access groups with
 * their members and doors (components/enterprise/AccessGroups.tsx; a company's 详情 shows its own).
 */
import { Space } from 'antd';
import { AccessGroups } from '../../components/enterprise/AccessGroups.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';

export default function KreatorUserGroupPage() {
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <AccessGroups />
    </Space>
  );
}
