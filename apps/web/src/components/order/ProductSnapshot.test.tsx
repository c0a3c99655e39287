import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { productSnapshotLabels } from '@cowork/contract/resources/order-snapshot';
import { ProductSnapshot } from './ProductSnapshot.tsx';

/** A snapshot holding every labelled key, the system's goods id and a key no one labelled. */
const snapshot: Record<string, unknown> = {
  ...Object.fromEntries(Object.keys(productSnapshotLabels).map((key) => [key, 1])),
  name: '企业会议卡 5000',
  activityTitle: '双十一会议卡特惠',
  cardType: 'month',
  seatType: 'fixed',
  unit: 'day',
  priceFen: 880000,
  goodsId: 12,
  somethingNew: 'x',
};

describe('ProductSnapshot', () => {
  it('labels every field in Chinese, enumerations by their labels, and never shows a stored key', () => {
    render(<ProductSnapshot snapshot={snapshot} />);
    const labels = [...document.querySelectorAll('.ant-descriptions-item-label')].map((e) => e.textContent);
    expect(labels).toHaveLength(Object.keys(productSnapshotLabels).length);
    for (const label of labels) expect(label).not.toMatch(/[A-Za-z]/);
    expect(screen.getByText('会议卡活动')).toBeTruthy();
    expect(screen.getByText('双十一会议卡特惠')).toBeTruthy();
    expect(screen.getByText('月卡')).toBeTruthy();
    expect(screen.getByText('固定工位')).toBeTruthy();
    expect(screen.getByText('按天')).toBeTruthy();
    expect(screen.getByText('¥8,800.00')).toBeTruthy();
    const text = document.body.textContent ?? '';
    for (const key of ['activityTitle', 'goodsId', 'somethingNew', 'fixed', 'month'])
      expect(text).not.toContain(key);
  });
});
