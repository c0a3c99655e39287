/** 分账规则: each merchant's share of one product type's sales over a period (有效期). */
import { merchantShare, shareWindowText } from '@cowork/contract/resources/merchant-share';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';

const windowColumn = {
  // Keyed by the start, so sorting this column sorts by 生效时间.
  key: 'effectiveFrom',
  sorter: true,
  title: '有效期',
  render: (_: unknown, record: ResourceRecord) =>
    shareWindowText(record.effectiveFrom as string, record.effectiveTo as string | null),
};

export default function MerchantSharePage() {
  return <ResourcePage resource={merchantShare} extraColumns={[windowColumn]} />;
}
