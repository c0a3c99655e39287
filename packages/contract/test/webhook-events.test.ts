import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  webhookEventExamples,
  webhookEventLabels,
  webhookEventSchemas,
  webhookEventTypes,
} from '../src/webhook-events.ts';

describe('webhook events', () => {
  test('the catalogue is the issue’s twenty types, each with a schema, a label and an example', () => {
    expect(webhookEventTypes).toHaveLength(20);
    expect(Object.keys(webhookEventSchemas)).toEqual([...webhookEventTypes]);
    expect(Object.keys(webhookEventLabels)).toEqual([...webhookEventTypes]);
    expect(Object.keys(webhookEventExamples)).toEqual([...webhookEventTypes]);
  });

  test.each(webhookEventTypes)('the example of %s passes its schema unchanged', (type) => {
    const example = webhookEventExamples[type];
    expect(webhookEventSchemas[type].parse(example)).toEqual(example);
  });

  test('a whole phone number is refused where a masked one belongs', () => {
    const whole = { ...webhookEventExamples['member.created'], phone: '13800000000' };
    const result = webhookEventSchemas['member.created'].safeParse(whole);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('事件里的手机号必须打码');
    const masked = { ...webhookEventExamples['door.opened'], phone: '138****0000' };
    expect(webhookEventSchemas['door.opened'].safeParse(masked).success).toBe(true);
  });

  test('a field the schema does not declare never reaches a receiver', () => {
    const data = { ...webhookEventExamples['device.online'], secret: 'x' };
    expect(webhookEventSchemas['device.online'].parse(data)).not.toHaveProperty('secret');
  });

  test('each schema becomes JSON Schema with its description, for the API docs', () => {
    for (const type of webhookEventTypes) {
      const json = z.toJSONSchema(webhookEventSchemas[type], { io: 'output', unrepresentable: 'throw' });
      expect(json.description).toContain(type);
      expect(json.type).toBe('object');
    }
  });
});
