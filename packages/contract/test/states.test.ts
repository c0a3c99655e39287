import { describe, expect, test } from 'vitest';
import { invoiceStates } from '../src/resources/invoice.ts';
import { orderStates } from '../src/resources/order.ts';

describe('resources with state', () => {
  test('the moves open to a status are the declared ones leaving it, in declared order', () => {
    expect(orderStates.movesFrom('pending')).toEqual(['pay', 'cancel']);
    expect(orderStates.movesFrom('paid')).toEqual(['use', 'refund']);
    expect(orderStates.movesFrom('refunded')).toEqual([]);
    expect(invoiceStates.movesFrom('pending')).toEqual(['issue', 'reject']);
    expect(invoiceStates.movesFrom('issued')).toEqual(['void']);
    expect(orderStates.movesFrom('unknown')).toEqual([]);
  });

  test('a refused move names both statuses in Chinese, with the hint when there is one', () => {
    expect(orderStates.illegalMove('cancelled', 'refunded')).toBe('订单当前为「已取消」，不能改为「已退款」');
    expect(invoiceStates.illegalMove('rejected', 'issued')).toBe(
      '发票申请当前为「已驳回」，不能改为「已开票」；只有待开票的申请可以开票，待开票的可以驳回、已开票的可以作废',
    );
  });

  test('every status has a label and a tag colour, and every move reaches a declared status', () => {
    for (const states of [orderStates, invoiceStates]) {
      const values = states.statuses.map((s) => s.value);
      for (const status of states.statuses) {
        expect(states.labelOf(status.value)).toBe(status.label);
        expect(states.colorOf(status.value)).toBeTruthy();
      }
      for (const move of Object.values(states.moves)) {
        expect(values).toContain(move.to);
        for (const from of move.from) expect(values).toContain(from);
      }
    }
    expect(orderStates.labelOf('unknown')).toBe('unknown');
  });
});
