/**
 * Areas of mainland China for address pickers (basic: area/…): province-list, city-list, region-list
 * and area-info, for any signed-in user. Answers come from the in-memory index of areas.ts (no
 * database).
 *
 * - GET …/area/province-list: the 31 province-level divisions.
 * - GET …/area/city-list?provinceCode=440000, GET …/area/region-list?cityCode=440300: one level
 *   down. A malformed code is a 400 naming the field (省份编码, 城市编码), an unknown one a 404.
 * - GET …/area/area-info?code=440305: the area with its province, city and region (地区编码).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { areaEndpoints, areaFieldLabels, areaMessages, areaSchemas } from '@cowork/contract';
import { envelope, notFound, ok } from '../../lib/http.ts';
import { loadAreas } from './areas.ts';

const schemas = areaSchemas(z);
const areaList = envelope(z.array(schemas.areaRecord));
const config = { auth: true, fieldLabels: areaFieldLabels };
const tags = ['area'];

const missing = (message: string, code: string) => notFound(message.replace('{code}', code));

export const areaRoutes: FastifyPluginAsyncZod = async (app) => {
  // Read once when the app starts, so the first request does not pay for it.
  const areas = loadAreas();

  app.get(
    areaEndpoints.provinceList,
    {
      config,
      schema: { tags, summary: 'Province-level divisions (省、自治区、直辖市)', response: { 200: areaList } },
    },
    async () => ok([...areas.provinces]),
  );

  app.get(
    areaEndpoints.cityList,
    {
      config,
      schema: {
        tags,
        summary: 'City-level divisions of a province (市辖区 / 县 for the municipalities)',
        querystring: schemas.cityListQuery,
        response: { 200: areaList },
      },
    },
    async (request) => {
      const { provinceCode } = request.query;
      if (areas.get(provinceCode)?.level !== 'province')
        throw missing(areaMessages.provinceNotFound, provinceCode);
      return ok([...areas.childrenOf(provinceCode)]);
    },
  );

  app.get(
    areaEndpoints.regionList,
    {
      config,
      schema: {
        tags,
        summary: 'County-level divisions of a city (empty for a city without counties, e.g. 东莞市)',
        querystring: schemas.regionListQuery,
        response: { 200: areaList },
      },
    },
    async (request) => {
      const { cityCode } = request.query;
      if (areas.get(cityCode)?.level !== 'city') throw missing(areaMessages.cityNotFound, cityCode);
      return ok([...areas.childrenOf(cityCode)]);
    },
  );

  app.get(
    areaEndpoints.areaInfo,
    {
      config,
      schema: {
        tags,
        summary: 'One area of any level with its province, city and region',
        querystring: schemas.areaInfoQuery,
        response: { 200: envelope(schemas.areaInfo) },
      },
    },
    async (request) => {
      const { code } = request.query;
      const info = areas.info(code);
      if (!info) throw missing(areaMessages.areaNotFound, code);
      return ok(info);
    },
  );
};

export default areaRoutes;
