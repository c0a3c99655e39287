/**
 * 企业 (/enterprise/company): the companies the operator serves, searched by name, 统一社会信用代码
 * and status, created and edited from their declaration (the credit code's check digit checked as
 * the server checks it), and a 详情 with their staff, groups, cards, orders and invoices, and
 * 操作记录 (components/enterprise/CompanyDetail.tsx).
 */
import { useState } from 'react';
import { Button } from 'antd';
import { company } from '@cowork/contract/resources/company';
import { CompanyDetail } from '../../components/enterprise/CompanyDetail.tsx';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function CompanyPage() {
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <>
      {/* The list masks the contact's phone: the form is filled from the detail. */}
      <ResourcePage
        resource={company}
        editFromDetail
        rowActions={(record) => (
          <Button type="link" size="small" onClick={() => setViewing(record.id)}>
            详情
          </Button>
        )}
      />
      <CompanyDetail id={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
