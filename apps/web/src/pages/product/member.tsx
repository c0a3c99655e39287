/**
 * 会员卡: day, month and times cards with their price (entered in yuan, listed as ¥) and the
 * buildings they are valid in (names in the table, searched by one building).
 */
import { userCard } from '@cowork/contract/resources/user-card';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function MemberCardPage() {
  return <ResourcePage resource={userCard} />;
}
