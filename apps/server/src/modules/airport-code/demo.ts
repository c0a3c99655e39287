/** Demo 机场三字码: major Chinese airports with their IATA codes. */
import type { Executor } from '../../db/client.ts';
import { airportCodes } from '../../db/schema.ts';

export const demoAirports: { code: string; city: string; airportName: string }[] = [
  { code: 'PEK', city: '北京', airportName: '北京首都国际机场' },
  { code: 'PKX', city: '北京', airportName: '北京大兴国际机场' },
  { code: 'PVG', city: '上海', airportName: '上海浦东国际机场' },
  { code: 'SHA', city: '上海', airportName: '上海虹桥国际机场' },
  { code: 'CAN', city: '广州', airportName: '广州白云国际机场' },
  { code: 'SZX', city: '深圳', airportName: '深圳宝安国际机场' },
  { code: 'TFU', city: '成都', airportName: '成都天府国际机场' },
  { code: 'CTU', city: '成都', airportName: '成都双流国际机场' },
  { code: 'HGH', city: '杭州', airportName: '杭州萧山国际机场' },
  { code: 'XIY', city: '西安', airportName: '西安咸阳国际机场' },
  { code: 'CKG', city: '重庆', airportName: '重庆江北国际机场' },
  { code: 'WUH', city: '武汉', airportName: '武汉天河国际机场' },
  { code: 'NKG', city: '南京', airportName: '南京禄口国际机场' },
  { code: 'KMG', city: '昆明', airportName: '昆明长水国际机场' },
  { code: 'XMN', city: '厦门', airportName: '厦门高崎国际机场' },
  { code: 'CSX', city: '长沙', airportName: '长沙黄花国际机场' },
  { code: 'TAO', city: '青岛', airportName: '青岛胶东国际机场' },
  { code: 'SYX', city: '三亚', airportName: '三亚凤凰国际机场' },
  { code: 'HAK', city: '海口', airportName: '海口美兰国际机场' },
  { code: 'TSN', city: '天津', airportName: '天津滨海国际机场' },
  { code: 'DLC', city: '大连', airportName: '大连周水子国际机场' },
  { code: 'SHE', city: '沈阳', airportName: '沈阳桃仙国际机场' },
  { code: 'CGO', city: '郑州', airportName: '郑州新郑国际机场' },
  { code: 'HRB', city: '哈尔滨', airportName: '哈尔滨太平国际机场' },
];

export default async function seedAirportCodes(tx: Executor) {
  await tx.insert(airportCodes).values(demoAirports);
}
