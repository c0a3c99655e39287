/**
 * Each enumeration is declared once in the contract, as its options; the tables' text columns list
 * the same values for their CHECK constraints (schema.ts stays free of other imports for
 * drizzle-kit). This test keeps the two the same: a value added on one side only fails here, not in
 * production as a 500 or a value the console cannot name.
 */
import { describe, expect, it } from 'vitest';
import {
  deviceCommandStateLabels,
  deviceStatusLabels,
  openMethodLabels,
  openResultLabels,
  type Option,
} from '@cowork/contract';
import { agreement } from '@cowork/contract/resources/agreement';
import { banner } from '@cowork/contract/resources/banner';
import { brightPointKinds } from '@cowork/contract/resources/bright-point';
import { companyCard, ledgerKindOptions } from '@cowork/contract/resources/company-card';
import { csrCapitalSite } from '@cowork/contract/resources/csr-capital-site';
import { invoice, invoiceStates } from '@cowork/contract/resources/invoice';
import { kreatorUserGroup } from '@cowork/contract/resources/kreator';
import {
  company,
  companyStaff as companyStaff_,
  staffScopeOptions,
} from '@cowork/contract/resources/company';
import { member } from '@cowork/contract/resources/member';
import { merchantShare } from '@cowork/contract/resources/merchant-share';
import { orderKindOptions, orderStates, payMethodOptions } from '@cowork/contract/resources/order';
import { officeSeat, seatGoodsFields } from '@cowork/contract/resources/seat';
import { spaceKindOptions } from '@cowork/contract/resources/space';
import { ssoUser } from '@cowork/contract/resources/sso-user';
import { userCard } from '@cowork/contract/resources/user-card';
import {
  banners,
  buildingBrightPoints,
  companies,
  companyCardLedger,
  companyCards,
  companyStaff,
  csrAgreements,
  csrCapitalSites,
  deviceCommands,
  deviceOpenLogs,
  devices,
  invoices,
  kreatorUserGroups,
  members,
  merchantShares,
  officeSeatGoods,
  officeSeats,
  orders,
  spaces,
  ssoUsers,
  userCards,
} from '../src/db/schema.ts';

const values = (options: readonly Option[] | undefined) => (options ?? []).map((o) => o.value).sort();
const keys = (labels: object) => Object.keys(labels).sort();
const column = (enumValues: readonly string[] | undefined) => [...(enumValues ?? [])].sort();

describe('enumerations: the contract and the tables list the same values', () => {
  const pairs: [string, readonly string[] | undefined, string[]][] = [
    ['banner type', banners.type.enumValues, values(banner.fields.type.options)],
    ['agreement type', csrAgreements.type.enumValues, values(agreement.fields.type.options)],
    ['bright point kind', buildingBrightPoints.kind.enumValues, values(brightPointKinds)],
    [
      'merchant share site type',
      merchantShares.siteType.enumValues,
      values(merchantShare.fields.siteType.options),
    ],
    ['user card type', userCards.cardType.enumValues, values(userCard.fields.cardType.options)],
    ['company card status', companyCards.status.enumValues, values(companyCard.fields.status.options)],
    ['ledger kind', companyCardLedger.kind.enumValues, values(ledgerKindOptions)],
    ['seat type', officeSeats.seatType.enumValues, values(officeSeat.fields.seatType.options)],
    ['seat status', officeSeats.status.enumValues, values(officeSeat.fields.status.options)],
    ['seat goods unit', officeSeatGoods.unit.enumValues, values(seatGoodsFields.unit.options)],
    ['order kind', orders.kind.enumValues, values(orderKindOptions)],
    ['order status', orders.status.enumValues, values(orderStates.statuses)],
    ['pay method', orders.payMethod.enumValues, values(payMethodOptions)],
    ['invoice status', invoices.status.enumValues, values(invoiceStates.statuses)],
    ['invoice title type', invoices.titleType.enumValues, values(invoice.fields.titleType.options)],
    ['invoice type', invoices.invoiceType.enumValues, values(invoice.fields.invoiceType.options)],
    ['lead status', csrCapitalSites.status.enumValues, values(csrCapitalSite.fields.status.options)],
    ['space kind', spaces.kind.enumValues, values(spaceKindOptions)],
    ['member status', members.status.enumValues, values(member.fields.status.options)],
    ['staff account status', ssoUsers.status.enumValues, values(ssoUser.fields.status.options)],
    [
      'access group status',
      kreatorUserGroups.status.enumValues,
      values(kreatorUserGroup.fields.status.options),
    ],
    ['company status', companies.status.enumValues, values(company.fields.status.options)],
    ['company staff status', companyStaff.status.enumValues, values(companyStaff_.fields.status.options)],
    ['access group staff scope', kreatorUserGroups.staffScope.enumValues, values(staffScopeOptions)],
    ['company card staff scope', companyCards.staffScope.enumValues, values(staffScopeOptions)],
    ['device status', devices.status.enumValues, keys(deviceStatusLabels)],
    ['device command state', deviceCommands.state.enumValues, keys(deviceCommandStateLabels)],
    ['door open method', deviceOpenLogs.method.enumValues, keys(openMethodLabels)],
    ['door open result', deviceOpenLogs.result.enumValues, keys(openResultLabels)],
  ];
  it.each(pairs)('%s', (_name, stored, declared) => {
    expect(declared.length).toBeGreaterThan(0);
    expect(column(stored)).toEqual(declared);
  });
});
