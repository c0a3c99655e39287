/**
 * 会议卡: stored-value cards with face value and price (entered in yuan, listed as ¥; the price may
 * not exceed the face value) and the buildings they are valid in.
 */
import { teamCard } from '@cowork/contract/resources/team-card';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function MeetingCardPage() {
  return <ResourcePage resource={teamCard} />;
}
