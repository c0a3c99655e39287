/**
 * Whom a group or card of scope 全部在职员工 or 指定部门 takes: the company's active staff (of each
 * department, one tab each). Read-only: the staff list is kept in 企业, and a change there reaches
 * the group's doors and the card at once.
 */
import { Alert, Space, Tabs } from 'antd';
import { optionLabel } from '@cowork/contract';
import {
  companyStaffEndpoints,
  staffScopeOptions,
  type StaffScope,
} from '@cowork/contract/resources/company';
import { ListPage, type ListDef } from '../resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';
import type { StaffRow } from './StaffPickers.tsx';

const scopeStaffList: ListDef<StaffRow> = {
  queryKey: ['company-staff', 'scope'],
  source: { page: companyStaffEndpoints.page, inAddress: false },
  filters: {
    name: { kind: 'text', label: '姓名', width: 140 },
    phone: { kind: 'text', label: '手机号', width: 140 },
  },
  columns: [
    { title: '姓名', value: 'name', width: 120 },
    { title: '手机号', value: 'phone', width: 130 },
    { title: '部门', value: 'department', width: 140 },
    { title: '入职日期', width: 170, render: (s) => formatTime(s.joinedAt) },
  ],
  size: 'small',
  emptyText: '没有在职员工',
};

export function ScopeStaff({
  companyId,
  companyName,
  scope,
  departments,
}: {
  companyId: number;
  companyName: string;
  scope: Exclude<StaffScope, 'people'>;
  departments: string[];
}) {
  const of = (department?: string) => (
    <ListPage
      list={scopeStaffList}
      framed={false}
      fixedFilters={{ companyId, status: 'active', ...(department ? { department } : {}) }}
    />
  );
  return (
    <Space orientation="vertical" size={12} style={{ display: 'flex' }}>
      <Alert
        type="info"
        showIcon
        title={`成员范围：${optionLabel(staffScopeOptions, scope)}${scope === 'departments' ? `（${departments.join('、')}）` : ''}`}
        description={`成员随“${companyName}”的员工列表自动变化：新入职的员工自动加入，离职或删除的员工立即移出。请在“企业”中管理员工。`}
      />
      {scope === 'all' ? (
        of()
      ) : (
        <Tabs size="small" items={departments.map((d) => ({ key: d, label: d, children: of(d) }))} />
      )}
    </Space>
  );
}
