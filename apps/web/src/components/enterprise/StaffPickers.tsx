/**
 * Choosing from a company's staff list, for the screens that give its staff something (企业门禁组,
 * 企业会议卡): its departments (指定部门), and its active staff searched by name or phone (指定人员).
 * Inside a form, the company is the form's `companyId`, or the one the screen is fixed to.
 */
import { useState } from 'react';
import { Form, Select, type SelectProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { type Page } from '@cowork/contract';
import { companyStaffEndpoints } from '@cowork/contract/resources/company';
import { api } from '../../lib/request.ts';
import { numberOf } from '../../lib/values.ts';

/** A row of company-staff/page, as the pickers and the staff tab read it. */
export interface StaffRow {
  id: number;
  companyId: number;
  memberId: number;
  name: string;
  phone: string;
  department: string | null;
  status: 'active' | 'left';
  joinedAt: string | null;
  leftAt: string | null;
}

export const staffLabel = (s: Pick<StaffRow, 'name' | 'phone' | 'department'>) =>
  `${s.name}（${s.phone}${s.department ? ` · ${s.department}` : ''}）`;

/** The company of the form around (its `companyId`), else `fixed` (a screen inside one company). */
export function useFormCompany(fixed?: number): number | undefined {
  const form = Form.useFormInstance();
  const watched = numberOf(Form.useWatch('companyId', form));
  return watched ?? fixed;
}

/** A company's departments (those its staff and groups name). */
export function useDepartments(companyId: number | undefined) {
  return useQuery({
    queryKey: ['company-staff', 'departments', companyId],
    queryFn: () => api.get<string[]>(companyStaffEndpoints.departments, { companyId }),
    enabled: companyId !== undefined,
  });
}

interface ControlProps<V> {
  id?: string;
  value?: V[] | null;
  onChange?: (value: V[]) => void;
}

/** 部门: several of the company's departments. */
export function DepartmentSelect({
  fixedCompanyId,
  ...props
}: ControlProps<string> & { fixedCompanyId?: number }) {
  const companyId = useFormCompany(fixedCompanyId);
  const departments = useDepartments(companyId);
  return (
    <Select
      {...props}
      value={props.value ?? []}
      mode="multiple"
      allowClear
      disabled={companyId === undefined}
      loading={departments.isFetching}
      placeholder={companyId === undefined ? '请先选择企业' : '请选择部门'}
      notFoundContent={departments.data?.length === 0 ? '该企业的员工还没有填写部门' : undefined}
      options={(departments.data ?? []).map((d) => ({ value: d, label: d }))}
    />
  );
}

/** The search a typed text asks for: digits are the start of a phone, anything else a name. */
export const staffSearchOf = (text: string): Record<string, string> =>
  text === '' ? {} : /^\d+$/.test(text) ? { phone: text } : { name: text };

/** Active staff of a company matching what was typed (20 at a time). */
export function useStaffSearch(companyId: number | undefined, typed: string) {
  return useQuery({
    queryKey: ['company-staff', 'search', companyId, typed],
    queryFn: () =>
      api.get<Page<StaffRow>>(companyStaffEndpoints.page, {
        companyId,
        status: 'active',
        size: 20,
        ...staffSearchOf(typed),
      }),
    enabled: companyId !== undefined,
  });
}

/**
 * 指定人员: active staff of the company, searched by name or phone; `valueOf` says what is kept (a
 * card keeps phones, a group binds members). Values already chosen keep their label while the
 * search shows others.
 */
export function StaffSelect<V extends string | number>({
  companyId,
  valueOf,
  ...props
}: ControlProps<V> & {
  companyId: number | undefined;
  valueOf: (staff: StaffRow) => V;
} & Pick<SelectProps, 'style' | 'aria-label'>) {
  const [typed, setTyped] = useState('');
  const [known, setKnown] = useState(new Map<V, string>());
  const found = useStaffSearch(companyId, typed);
  const chosen = props.value ?? [];
  const options = new Map(known);
  for (const s of found.data?.records ?? []) options.set(valueOf(s), staffLabel(s));
  // A value chosen before (a card's phone) is shown as itself until a search names it.
  for (const v of chosen) if (!options.has(v)) options.set(v, String(v));
  return (
    <Select<V[]>
      {...props}
      value={chosen}
      mode="multiple"
      allowClear
      filterOption={false}
      disabled={companyId === undefined}
      placeholder={companyId === undefined ? '请先选择企业' : '输入姓名或手机号搜索在职员工'}
      showSearch={{ onSearch: (v) => setTyped(v.trim()) }}
      loading={found.isFetching}
      notFoundContent={found.isFetching ? '搜索中…' : '没有找到在职员工'}
      onChange={(next) => {
        // Labels of what was picked stay known once the search moves on.
        setKnown(new Map([...options].filter(([v]) => next.includes(v))));
        props.onChange?.(next);
      }}
      options={[...options].map(([value, label]) => ({ value, label }))}
    />
  );
}

/** 可用员工手机号 of a card in 指定人员: phones of the company's active staff. */
export function StaffPhoneSelect({
  fixedCompanyId,
  ...props
}: ControlProps<string> & { fixedCompanyId?: number }) {
  const companyId = useFormCompany(fixedCompanyId);
  return <StaffSelect<string> {...props} companyId={companyId} valueOf={(s) => s.phone} />;
}
