/**
 * 购买时的产品 in an order's detail: the snapshot's fields under their Chinese labels, in the
 * contract's order; money in ¥, enumerations by their labels. A key the contract does not label is
 * left out rather than shown as it is stored.
 *
 * @example <ProductSnapshot snapshot={order.productSnapshot} />
 */
import { Descriptions } from 'antd';
import { formatYuan, optionLabel } from '@cowork/contract';
import {
  productSnapshotLabels,
  productSnapshotOptions,
  productSnapshotUnits,
  type ProductSnapshotKey,
} from '@cowork/contract/resources/order-snapshot';

function valueOf(key: ProductSnapshotKey, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (key.endsWith('Fen') && typeof value === 'number') return formatYuan(value);
  const options = productSnapshotOptions[key];
  if (options) return optionLabel(options, String(value));
  const unit = productSnapshotUnits[key];
  if (unit) return `${String(value)} ${unit}`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function ProductSnapshot({ snapshot }: { snapshot: Record<string, unknown> }) {
  const keys = (Object.keys(productSnapshotLabels) as ProductSnapshotKey[]).filter((key) =>
    Object.hasOwn(snapshot, key),
  );
  return (
    <Descriptions title="购买时的产品" column={2} bordered size="small">
      {keys.map((key) => (
        <Descriptions.Item key={key} label={productSnapshotLabels[key]}>
          {valueOf(key, snapshot[key])}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
