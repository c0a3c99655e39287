/**
 * 企业详情: the company's record, and in tabs what hangs off it: 员工 (its staff list), 门禁组 and
 * 会议卡 (its groups and cards, created here for it), 订单与发票, and 操作记录 (the audit entries of
 * the company, its staff, groups and cards). Each tab is the same component its own screen uses.
 */
import { Tabs } from 'antd';
import { KREATOR_VIEW_PERMISSION } from '@cowork/contract/resources/kreator';
import { company } from '@cowork/contract/resources/company';
import { companyCard } from '@cowork/contract/resources/company-card';
import { AUDIT_LOG_PERMISSION, resourcePaths, resourcePermissions } from '@cowork/contract';
import { AuditLog } from '../audit/AuditLog.tsx';
import { usePermission } from '../PermissionGate.tsx';
import { ResourceShow } from '../resource/ResourceShow.tsx';
import { textOf } from '../../lib/values.ts';
import { AccessGroups } from './AccessGroups.tsx';
import { CompanyCards } from './CompanyCards.tsx';
import { CompanyOrders } from './CompanyOrders.tsx';
import { CompanyStaff } from './CompanyStaff.tsx';

interface CompanyRecord {
  id: number;
  name: string;
  taxNo: string | null;
}

export function CompanyDetail({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { can } = usePermission();
  const tabs = (record: CompanyRecord) =>
    [
      { key: 'staff', label: '员工', children: <CompanyStaff companyId={record.id} /> },
      can([KREATOR_VIEW_PERMISSION]) && {
        key: 'groups',
        label: '门禁组',
        children: <AccessGroups companyId={record.id} />,
      },
      can([resourcePermissions(companyCard).view]) && {
        key: 'cards',
        label: '会议卡',
        children: <CompanyCards companyId={record.id} />,
      },
      {
        key: 'orders',
        label: '订单与发票',
        children: <CompanyOrders companyId={record.id} taxNo={textOf(record.taxNo) ?? null} />,
      },
      can([AUDIT_LOG_PERMISSION]) && {
        key: 'log',
        label: '操作记录',
        children: <AuditLog fixedFilters={{ companyId: record.id }} />,
      },
    ].filter((tab) => tab !== false);
  return (
    <ResourceShow<CompanyRecord>
      resource={company}
      detailPath={resourcePaths(company).detail}
      id={id}
      onClose={onClose}
      size={1200}
      fieldsTitle="企业信息"
    >
      {(record) => <Tabs destroyOnHidden items={tabs(record)} />}
    </ResourceShow>
  );
}
