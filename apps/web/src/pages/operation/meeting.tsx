/**
 * 会议卡活动: meeting cards sold at a discount price within a window, from a limited stock, at most
 * so many per member. Sales happen in 新建订单 of 会议卡订单; 已售 and 剩余 follow them (a cancel or
 * a refund gives one back). Once an activity has sold, its card and price stay fixed.
 */
import { Tag } from 'antd';
import { teamCardActivity } from '@cowork/contract/resources/team-card-activity';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function MeetingActivityPage() {
  return (
    <ResourcePage
      resource={teamCardActivity}
      cells={{
        remaining: (value) => (Number(value) > 0 ? String(value) : <Tag color="red">已售罄</Tag>),
      }}
    />
  );
}
