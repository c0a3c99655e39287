/**
 * 开放平台 as staff see it: tabs and buttons by permission codes (接口密钥 only with its own view
 * code, no write buttons without edit codes), an endpoint's state (推送失败中, and in red why the
 * console turned it off), the signing secret shown once after 新建, the event picker's 全选, a
 * failed delivery shown 待重试 and sent again, an edit that sends the listed URL back as shown, and
 * an API key shown once with its Bearer line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { InternalAxiosRequestConfig } from 'axios';
import type { UserInfo } from '@cowork/contract';
import { apiKeyEndpoints } from '@cowork/contract/resources/api-key';
import {
  subscribableEventTypes,
  webhookApi,
  type WebhookDeliveryRecord,
  type WebhookRecord,
} from '@cowork/contract/resources/webhook';
import OpenPlatformPage from '../../pages/system/open.tsx';
import { queryKeys } from '../../lib/query-client.ts';
import { request } from '../../lib/request.ts';
import { setTokens } from '../../lib/session.ts';
import { mockAdapter, paramsOf } from '../../test/mock-adapter.ts';
import { apiKeyState } from './ApiKeyTab.tsx';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

const endpoint = (patch: Partial<WebhookRecord>): WebhookRecord => ({
  id: 1,
  name: '财务系统',
  url: 'https://***@erp.example.com/hook',
  kind: 'webhook',
  events: ['order.paid', 'order.refunded'],
  enabled: true,
  remark: null,
  disabledReason: null,
  lastDeliveryAt: null,
  failing: false,
  failingSince: null,
  previousSecretUntil: null,
  createdAt: '2026-11-27T08:00:00.000Z',
  ...patch,
});

const delivery: WebhookDeliveryRecord = {
  id: 41,
  endpointId: 1,
  endpointName: '财务系统',
  eventId: '0b8e4c1e-0000-4000-8000-000000000001',
  eventType: 'webhook.test',
  status: 'pending',
  attempts: 1,
  lastStatusCode: 500,
  lastDurationMs: 12,
  lastAttemptAt: '2026-11-27T08:00:01.000Z',
  nextAttemptAt: '2026-11-27T08:01:01.000Z',
  lastError: '接收方返回 HTTP 500',
  answer: 'receiver is down',
  createdAt: '2026-11-27T08:00:00.000Z',
};

const page = <T,>(records: T[]) => ({ records, total: records.length, current: 1, size: 10 });

/** Answers of the API by path; anything else is 404. */
function answerOf(config: InternalAxiosRequestConfig): unknown {
  switch (config.url) {
    case webhookApi.page:
      return page([
        endpoint({}),
        endpoint({
          id: 2,
          name: '运营群',
          kind: 'wecom',
          url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=***',
          enabled: false,
          failing: true,
          disabledReason: '自 2026-11-24 08:00 起推送持续失败已满 3 天，系统已自动停用。',
        }),
      ]);
    case webhookApi.save:
      return { id: 3, secret: 'whsec_onlyonce' };
    case webhookApi.edit:
      return null;
    case webhookApi.deliveryPage:
      return page([delivery]);
    case webhookApi.deliveryResend:
      return { queued: 1 };
    case apiKeyEndpoints.page:
      return page([]);
    case apiKeyEndpoints.roleList:
      return [{ value: 1, label: '超级管理员' }];
    case apiKeyEndpoints.save:
      return { id: 9, key: 'ck_shownonce' };
    default:
      return config.url?.endsWith('/list') ? [] : undefined;
  }
}

function renderAs(permissions: string[], address = '/system/open') {
  setTokens('access', 'refresh');
  const adapter = mockAdapter((config) => {
    const data = answerOf(config);
    return data === undefined
      ? { status: 404, data: { code: 404, msg: '不存在', data: null } }
      : { status: 200, data: { code: 200, msg: '操作成功', data } };
  });
  request.defaults.adapter = adapter;
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.userInfo, {
    ssoUserId: 1,
    nickname: '测试',
    permissions,
  } as Partial<UserInfo>);
  const router = createMemoryRouter(
    [
      {
        path: '/system/open',
        element: (
          <App>
            <OpenPlatformPage />
          </App>
        ),
      },
    ],
    { initialEntries: [address] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const bodies = (url: string) =>
    adapter.calls.filter((c) => c.url === url).map((c) => JSON.parse(String(c.data)) as unknown);
  const queries = (url: string) => adapter.calls.filter((c) => c.url === url).map(paramsOf);
  return { router, bodies, queries };
}

/**
 * A drawer or modal by its title. (Under test every generated id is "test-id", so a dialog's
 * aria-labelledby may name another element: its accessible name cannot be relied on here.)
 */
const dialogTitled = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-drawer-title, .ant-modal-title' })).closest<HTMLElement>(
    '[role=dialog]',
  )!;

const all = [
  'system:open:view',
  'system:open:edit',
  'system:open:remove',
  'system:open:api-key:view',
  'system:open:api-key:edit',
];

// antd's form and table draw slowly on a busy machine.
describe('开放平台', { timeout: 30_000 }, () => {
  it('shows read-only staff the endpoints and their state, without 接口密钥 or write buttons', async () => {
    renderAs(['system:open:view']);
    const robot = (await screen.findByText('运营群')).closest('tr')!;
    expect(robot.textContent).toContain('停用');
    expect(robot.textContent).toContain('推送失败中');
    expect(within(robot).getByText(/系统已自动停用/).className).toContain('danger');
    expect(robot.textContent).toContain('key=***');
    expect(screen.getAllByText('2 个事件')).toHaveLength(2);
    expect(screen.getByRole('tab', { name: '推送记录' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: '接口密钥' })).toBeNull();
    expect(screen.queryByRole('button', { name: /新建推送地址/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '发送测试' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    // 推送记录 stays: it opens the log filtered to that endpoint.
    fireEvent.click(within(robot).getByRole('button', { name: '推送记录' }));
    expect(await screen.findByRole('tab', { name: '推送记录', selected: true })).toBeTruthy();
  });

  it('creates a webhook with every event through 全选 and shows its secret once', async () => {
    const { bodies } = renderAs(all);
    fireEvent.click(await screen.findByRole('button', { name: /新建推送地址/ }));
    const drawer = await dialogTitled('新建推送地址');
    fireEvent.change(within(drawer).getByLabelText('名称'), { target: { value: '会员小程序' } });
    fireEvent.change(within(drawer).getByLabelText('地址'), {
      target: { value: 'https://app.example.com/hook' },
    });
    fireEvent.click(within(drawer).getByRole('checkbox', { name: '全选' }));
    expect(
      within(drawer).getByText(
        `已选 ${subscribableEventTypes.length} / ${subscribableEventTypes.length} 个事件`,
      ),
    ).toBeTruthy();
    // 加签密钥 is 钉钉's (and 飞书's 签名校验密钥), not a webhook's.
    expect(within(drawer).queryByLabelText('加签密钥')).toBeNull();
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    const shown = await dialogTitled('签名密钥：会员小程序');
    expect(bodies(webhookApi.save)).toEqual([
      {
        name: '会员小程序',
        url: 'https://app.example.com/hook',
        kind: 'webhook',
        events: [...subscribableEventTypes],
        enabled: true,
      },
    ]);
    expect(within(shown).getByTestId('shown-once-value').textContent).toContain('whsec_onlyonce');
    expect(shown.textContent).toContain('签名密钥只显示这一次');
    expect(shown.textContent).toContain('docs/webhooks.md');
    fireEvent.click(within(shown).getByRole('button', { name: '我已保存签名密钥' }));
    await waitFor(() => expect(screen.queryByText('whsec_onlyonce')).toBeNull());
  });

  it('asks for the robot secret only for 钉钉 (加签) and 飞书 (签名校验)', async () => {
    renderAs(all);
    fireEvent.click(await screen.findByRole('button', { name: /新建推送地址/ }));
    const drawer = await dialogTitled('新建推送地址');
    const pick = async (kind: string) => {
      fireEvent.mouseDown(within(drawer).getByLabelText('类型'));
      fireEvent.click(await screen.findByTitle(kind));
    };
    expect(within(drawer).queryByLabelText('加签密钥')).toBeNull();
    await pick('钉钉群机器人');
    expect(await within(drawer).findByLabelText('加签密钥')).toBeTruthy();
    await pick('飞书群机器人');
    expect(await within(drawer).findByLabelText('签名校验密钥')).toBeTruthy();
    await pick('企业微信群机器人');
    await waitFor(() => expect(within(drawer).queryByLabelText('签名校验密钥')).toBeNull());
    expect(within(drawer).queryByLabelText('加签密钥')).toBeNull();
  });

  it('sends the URL back as the list shows it (*** and all), for the server to keep the stored one', async () => {
    const { bodies } = renderAs(all);
    const robot = (await screen.findByText('运营群')).closest('tr')!;
    fireEvent.click(within(robot).getByRole('button', { name: '编辑' }));
    const drawer = await dialogTitled('编辑推送地址：运营群');
    const shownUrl = 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=***';
    expect((within(drawer).getByLabelText('地址') as HTMLInputElement).value).toBe(shownUrl);
    expect(drawer.textContent).toContain('地址不改则原样保留');
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('推送地址“运营群”已保存')).toBeTruthy();
    expect(bodies(webhookApi.edit)).toEqual([
      {
        id: 2,
        name: '运营群',
        url: shownUrl,
        events: ['order.paid', 'order.refunded'],
        enabled: false,
        remark: null,
      },
    ]);
  });

  it('shows a failed delivery as 待重试 with its answer, and sends it again', async () => {
    const { bodies } = renderAs(all, '/system/open?tab=deliveries');
    const row = (await screen.findByText('测试事件')).closest('tr')!;
    expect(row.textContent).toContain('待重试');
    expect(row.textContent).toContain('已尝试 1 次');
    expect(row.textContent).toContain('500');
    expect(screen.getByRole('button', { name: '重新发送失败的记录' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(row).getByRole('button', { name: /展开行|Expand row/ }));
    expect((await screen.findByTestId('delivery-answer')).textContent).toBe('receiver is down');
    expect(screen.getByText('接收方返回 HTTP 500')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: '重新发送' }));
    expect(await screen.findByText(/已重新排队 1 条推送记录/)).toBeTruthy();
    expect(bodies(webhookApi.deliveryResend)).toEqual([{ ids: [41] }]);
  });

  it('creates an API key and shows it once with the Authorization line', async () => {
    const { bodies } = renderAs(all, '/system/open?tab=api-keys');
    fireEvent.click(await screen.findByRole('button', { name: /新建接口密钥/ }));
    const drawer = await dialogTitled('新建接口密钥');
    fireEvent.change(within(drawer).getByLabelText('密钥名称'), { target: { value: '财务系统' } });
    fireEvent.mouseDown(within(drawer).getByLabelText('所属角色'));
    fireEvent.click(await screen.findByTitle('超级管理员'));
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    const shown = await dialogTitled('接口密钥：财务系统');
    expect(bodies(apiKeyEndpoints.save)).toMatchObject([{ name: '财务系统', roleId: 1 }]);
    expect(shown.textContent).toContain('Authorization: Bearer ck_shownonce');
    expect(shown.textContent).toContain('接口密钥只显示这一次');
  });

  it('names a key 有效, 已过期 or 已吊销', () => {
    const now = Date.parse('2026-11-27T08:00:00.000Z');
    expect(apiKeyState({ expiresAt: null, revokedAt: null }, now)).toBe('active');
    expect(apiKeyState({ expiresAt: '2026-11-28T00:00:00.000Z', revokedAt: null }, now)).toBe('active');
    expect(apiKeyState({ expiresAt: '2026-11-27T07:59:59.000Z', revokedAt: null }, now)).toBe('expired');
    expect(apiKeyState({ expiresAt: null, revokedAt: '2026-11-27T07:00:00.000Z' }, now)).toBe('revoked');
  });
});
