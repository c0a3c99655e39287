/**
 * The paging keys every list takes (`current`, `size`), declared once: resource pages, the route
 * catalogue, the device family and every other list read them from here.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants.ts';
import { numeric } from './validators.ts';

/** Pages past this are refused: no screen pages that far, and a huge offset is a slow scan. */
export const MAX_PAGE_NUMBER = 100_000;

export const pageParams = {
  current: numeric(
    z
      .number({ error: '页码必须是正整数' })
      .int('页码必须是正整数')
      .min(1, '页码必须是正整数')
      .max(MAX_PAGE_NUMBER, `页码最大为 ${MAX_PAGE_NUMBER}`)
      .default(1),
  ),
  size: numeric(
    z
      .number({ error: '每页条数必须是正整数' })
      .int('每页条数必须是正整数')
      .min(1, '每页条数必须是正整数')
      .max(MAX_PAGE_SIZE, `每页最多 ${MAX_PAGE_SIZE} 条`)
      .default(10),
  ),
};

/** `{ current, size }` as one schema, for a query that has no other keys or extends it. */
export const pageQuery = z.object(pageParams);
export type PageQuery = z.output<typeof pageQuery>;
