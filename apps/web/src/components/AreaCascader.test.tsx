import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App, Button, ConfigProvider, Form } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { InternalAxiosRequestConfig } from 'axios';
import { areaEndpoints, type AreaInfo, type AreaRecord } from '@cowork/contract';
import { mockAdapter, paramsOf, type Reply } from '../test/mock-adapter.ts';
import { request, setToast } from '../lib/request.ts';
import { setTokens } from '../lib/session.ts';
import { AreaCascader, fromAreaValue, toAreaValue } from './AreaCascader.tsx';

const toast = vi.fn();
const originalAdapter = request.defaults.adapter;
const ok = (data: unknown): Reply => ({ status: 200, data: { code: 200, msg: '操作成功', data } });
const notFound = (msg: string): Reply => ({ status: 404, data: { code: 404, msg, data: null } });

const area = (code: string, name: string, parentCode: string | null): AreaRecord => ({
  code,
  name,
  level: parentCode === null ? 'province' : code.endsWith('00') ? 'city' : 'region',
  parentCode,
});

/** A slice of the real data: enough for a province, a municipality and a city without counties. */
const provinces = [area('110000', '北京市', null), area('440000', '广东省', null)];
const children: Record<string, AreaRecord[]> = {
  '110000': [area('110100', '市辖区', '110000')],
  '110100': [area('110105', '朝阳区', '110100'), area('110108', '海淀区', '110100')],
  '440000': [area('440300', '深圳市', '440000'), area('441900', '东莞市', '440000')],
  '440300': [area('440304', '福田区', '440300'), area('440305', '南山区', '440300')],
  '441900': [],
};
const byCode = new Map([...provinces, ...Object.values(children).flat()].map((a) => [a.code, a]));

function areaInfo(code: string): AreaInfo | undefined {
  const self = byCode.get(code);
  if (!self) return undefined;
  const chain: AreaRecord[] = [];
  for (let a: AreaRecord | undefined = self; a; a = a.parentCode ? byCode.get(a.parentCode) : undefined)
    chain.unshift(a);
  const [province, city, region] = chain;
  return {
    ...self,
    provinceCode: province.code,
    provinceName: province.name,
    cityCode: city?.code ?? null,
    cityName: city?.name ?? null,
    regionCode: region?.code ?? null,
    regionName: region?.name ?? null,
    fullName: chain.map((a) => a.name).join(''),
    chain,
  };
}

/** The area endpoints as the server answers them. */
function serveAreas(config: InternalAxiosRequestConfig): Reply {
  const params = paramsOf(config);
  switch (config.url) {
    case areaEndpoints.provinceList:
      return ok(provinces);
    case areaEndpoints.cityList:
      return ok(children[params.provinceCode]);
    case areaEndpoints.regionList:
      return ok(children[params.cityCode]);
    case areaEndpoints.areaInfo: {
      const found = areaInfo(params.code);
      return found ? ok(found) : notFound(`未找到编码为 ${params.code} 的地区`);
    }
    default:
      return notFound('接口不存在');
  }
}

let adapter: ReturnType<typeof mockAdapter>;
const callsTo = (url: string) => adapter.calls.filter((c) => c.url === url).map((c) => paramsOf(c));

function renderForm(initial?: { area?: string[] }, depth?: 'city') {
  const onFinish = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ConfigProvider locale={zhCN} theme={{ token: { motion: false } }}>
        <App>
          <Form initialValues={initial} onFinish={onFinish}>
            <Form.Item name="area" label="所在地区">
              <AreaCascader depth={depth} />
            </Form.Item>
            <Button htmlType="submit">提交</Button>
          </Form>
        </App>
      </ConfigProvider>
    </QueryClientProvider>,
  );
  return { onFinish };
}

const shown = () => document.querySelector('.ant-select')!.textContent;

function openDropdown() {
  fireEvent.mouseDown(screen.getByRole('combobox'));
}

/** Clicks an entry of the dropdown once its column is there. */
async function pick(name: string, column: number) {
  const item = await waitFor(() => {
    const menus = document.querySelectorAll('.ant-cascader-menu');
    const found = menus[column]?.querySelector<HTMLElement>(`.ant-cascader-menu-item[title="${name}"]`);
    expect(found, `${name} in column ${column + 1}`).toBeTruthy();
    return found!;
  });
  fireEvent.click(item);
}

async function submitted(onFinish: ReturnType<typeof vi.fn>) {
  fireEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
  await waitFor(() => expect(onFinish).toHaveBeenCalled());
  return onFinish.mock.lastCall![0] as { area?: string[] };
}

beforeEach(() => {
  toast.mockReset();
  setToast(toast);
  setTokens('the-access-token', 'the-refresh-token');
  adapter = mockAdapter(serveAreas);
  request.defaults.adapter = adapter;
});

afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

// Several dropdown columns render per test; a busy machine needs more than the default 5 s.
describe('AreaCascader', { timeout: 30_000 }, () => {
  it('where the field asks for a city, clicking the city chooses it (no districts)', async () => {
    const { onFinish } = renderForm(undefined, 'city');
    openDropdown();
    await pick('广东省', 0);
    await pick('深圳市', 1);
    await waitFor(() => expect(shown()).toBe('广东省 / 深圳市'));
    expect(document.querySelectorAll('.ant-cascader-menu')).not.toHaveLength(3);
    expect(callsTo(areaEndpoints.regionList)).toHaveLength(0);
    expect((await submitted(onFinish)).area).toEqual(['440000', '440300']);
  });

  it('asks 请选择省/市/区 and loads each level only when it is opened', async () => {
    const { onFinish } = renderForm();
    expect(screen.getByText('请选择省/市/区')).toBeTruthy();
    await waitFor(() => expect(callsTo(areaEndpoints.provinceList)).toHaveLength(1));
    expect(adapter.calls[0].headers.get('Authorization')).toBe('Bearer the-access-token');

    openDropdown();
    await pick('广东省', 0);
    await waitFor(() => expect(callsTo(areaEndpoints.cityList)).toEqual([{ provinceCode: '440000' }]));
    await pick('深圳市', 1);
    await waitFor(() => expect(callsTo(areaEndpoints.regionList)).toEqual([{ cityCode: '440300' }]));
    await pick('南山区', 2);

    await waitFor(() => expect(shown()).toBe('广东省 / 深圳市 / 南山区'));
    const values = await submitted(onFinish);
    expect(values.area).toEqual(['440000', '440300', '440305']);
    expect(fromAreaValue(values.area)).toEqual({
      provinceCode: '440000',
      cityCode: '440300',
      regionCode: '440305',
    });
    // Names already loaded need no area-info call; nothing was fetched twice.
    expect(callsTo(areaEndpoints.areaInfo)).toHaveLength(0);
    expect(callsTo(areaEndpoints.cityList)).toHaveLength(1);
    expect(toast).not.toHaveBeenCalled();
  });

  it('goes through 市辖区 for a municipality', async () => {
    const { onFinish } = renderForm();
    openDropdown();
    await pick('北京市', 0);
    await pick('市辖区', 1);
    await pick('朝阳区', 2);
    await waitFor(() => expect(shown()).toBe('北京市 / 市辖区 / 朝阳区'));
    expect((await submitted(onFinish)).area).toEqual(['110000', '110100', '110105']);
  });

  it('lets a city without counties be chosen itself', async () => {
    const { onFinish } = renderForm();
    openDropdown();
    await pick('广东省', 0);
    await pick('东莞市', 1);
    await waitFor(() => expect(callsTo(areaEndpoints.regionList)).toEqual([{ cityCode: '441900' }]));
    // Once its (empty) list is in, 东莞市 is a leaf: choosing it ends the path there.
    await waitFor(() =>
      expect(
        document.querySelector('.ant-cascader-menu-item[title="东莞市"] .ant-cascader-menu-item-expand-icon'),
      ).toBeNull(),
    );
    await pick('东莞市', 1);
    await waitFor(() => expect(shown()).toBe('广东省 / 东莞市'));
    const values = await submitted(onFinish);
    expect(values.area).toEqual(['440000', '441900']);
    expect(fromAreaValue(values.area)).toEqual({
      provinceCode: '440000',
      cityCode: '441900',
      regionCode: null,
    });
  });

  it('names an existing value through area-info, and opens on its path', async () => {
    const record = { provinceCode: '440000', cityCode: '440300', regionCode: '440305' };
    const { onFinish } = renderForm({ area: toAreaValue(record) });
    await waitFor(() => expect(shown()).toBe('广东省 / 深圳市 / 南山区'));
    expect(callsTo(areaEndpoints.areaInfo)).toEqual([{ code: '440305' }]);
    // The lists of the path wait until the dropdown opens.
    expect(callsTo(areaEndpoints.cityList)).toHaveLength(0);
    expect(callsTo(areaEndpoints.regionList)).toHaveLength(0);

    openDropdown();
    await waitFor(() => expect(document.querySelectorAll('.ant-cascader-menu')).toHaveLength(3));
    expect(callsTo(areaEndpoints.cityList)).toEqual([{ provinceCode: '440000' }]);
    expect(callsTo(areaEndpoints.regionList)).toEqual([{ cityCode: '440300' }]);
    const columns = [...document.querySelectorAll('.ant-cascader-menu')].map((menu) =>
      [...menu.querySelectorAll('.ant-cascader-menu-item')].map((li) => li.getAttribute('title')),
    );
    expect(columns).toEqual([
      ['北京市', '广东省'],
      ['深圳市', '东莞市'],
      ['福田区', '南山区'],
    ]);
    const active = [...document.querySelectorAll('.ant-cascader-menu-item-active')].map((li) =>
      li.getAttribute('title'),
    );
    expect(active).toEqual(['广东省', '深圳市', '南山区']);

    // Choosing another district of the same city.
    await pick('福田区', 2);
    await waitFor(() => expect(shown()).toBe('广东省 / 深圳市 / 福田区'));
    expect((await submitted(onFinish)).area).toEqual(['440000', '440300', '440304']);
  });

  it('keeps the codes of a value the server does not know, and says so', async () => {
    renderForm({ area: ['440000', '440300', '440399'] });
    await waitFor(() => expect(toast).toHaveBeenCalledWith('未找到编码为 440399 的地区', expect.any(Number)));
    await waitFor(() => expect(shown()).toBe('广东省 / 440300 / 440399'));
  });

  it('asks again for a list that failed when it is opened again', async () => {
    let failures = 1;
    adapter = mockAdapter((config) =>
      config.url === areaEndpoints.cityList && failures-- > 0
        ? { status: 500, data: { code: 500, msg: '服务器开小差了', data: null } }
        : serveAreas(config),
    );
    request.defaults.adapter = adapter;
    renderForm();
    openDropdown();
    await pick('广东省', 0);
    await waitFor(() => expect(toast).toHaveBeenCalledWith('服务器开小差了', expect.any(Number)));
    expect(document.querySelectorAll('.ant-cascader-menu')).toHaveLength(1);

    await pick('广东省', 0);
    await pick('深圳市', 1);
    expect(callsTo(areaEndpoints.cityList)).toHaveLength(2);
  });

  it('can be cleared', async () => {
    const { onFinish } = renderForm({ area: ['110000', '110100', '110108'] });
    await waitFor(() => expect(shown()).toBe('北京市 / 市辖区 / 海淀区'));
    fireEvent.mouseDown(document.querySelector('.ant-select-clear')!);
    fireEvent.click(document.querySelector('.ant-select-clear')!);
    await waitFor(() => expect(screen.getByText('请选择省/市/区')).toBeTruthy());
    expect((await submitted(onFinish)).area).toBeUndefined();
  });
});

describe('toAreaValue / fromAreaValue', () => {
  it('map a record’s provinceCode, cityCode and regionCode to the cascader value and back', () => {
    expect(toAreaValue({ provinceCode: '440000', cityCode: '440300', regionCode: '440305' })).toEqual([
      '440000',
      '440300',
      '440305',
    ]);
    expect(toAreaValue({ provinceCode: '440000', cityCode: '441900', regionCode: null })).toEqual([
      '440000',
      '441900',
    ]);
    // A path stops at its first gap.
    expect(toAreaValue({ provinceCode: '440000', cityCode: null, regionCode: '440305' })).toEqual(['440000']);
    expect(toAreaValue({ provinceCode: null })).toBeUndefined();
    expect(toAreaValue(undefined)).toBeUndefined();

    expect(fromAreaValue(['110000', '110100', '110105'])).toEqual({
      provinceCode: '110000',
      cityCode: '110100',
      regionCode: '110105',
    });
    expect(fromAreaValue(undefined)).toEqual({ provinceCode: null, cityCode: null, regionCode: null });
    expect(fromAreaValue([])).toEqual({ provinceCode: null, cityCode: null, regionCode: null });
  });
});
