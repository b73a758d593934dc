import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KickApiError, ValidationError } from '../../../../electron/kick/kick-errors';
import { createMockKick, signInMock, type MockKick } from '../../../helpers/kick-mock';

/**
 * Every limit of [seed §8](../../../../docs/product-spec.md#8-limits) and precondition of [§4.2](../../../../docs/product-spec.md#42-logical-operations) fails before sending: the MockAgent has no interceptors
 * and the network is disabled, so a request that left would fail with a different error.
 */
describe('pre-send validation', () => {
  let mock: MockKick;
  beforeEach(async () => {
    mock = createMockKick();
    await signInMock(mock);
  });
  afterEach(async () => {
    mock.agent.assertNoPendingInterceptors();
    await mock.agent.close();
  });

  async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }

  const cases: [string, (m: MockKick) => Promise<unknown>, string, RegExp][] = [
    [
      'a 501-character chat message',
      (m) => m.kick.client.sendChatMessage({ content: 'x'.repeat(501), type: 'bot' }),
      'content',
      /at most 500/,
    ],
    ['an empty chat message', (m) => m.kick.client.sendChatMessage({ content: '', type: 'bot' }), 'content', /empty/],
    [
      'a user message without a broadcaster',
      (m) => m.kick.client.sendChatMessage({ content: 'hi', type: 'user' }),
      'broadcaster_user_id',
      /required/,
    ],
    [
      '11 custom tags',
      (m) => m.kick.client.updateChannel({ customTags: Array.from({ length: 11 }, (_, i) => `t${i}`) }),
      'custom_tags',
      /at most 10/,
    ],
    [
      'update_channel with nothing to update',
      (m) => m.kick.client.updateChannel({}),
      'category_id, stream_title, custom_tags',
      /at least one/,
    ],
    [
      '26 redemption ids',
      (m) => m.kick.client.acceptRewardRedemptions(Array.from({ length: 26 }, (_, i) => `id${i}`)),
      'ids',
      /at most 25/,
    ],
    ['no redemption ids', (m) => m.kick.client.rejectRewardRedemptions([]), 'ids', /at least 1/],
    ['a duplicate redemption id', (m) => m.kick.client.acceptRewardRedemptions(['a', 'b', 'a']), 'ids', /repeat/],
    [
      'ids combined with another filter',
      (m) => m.kick.client.fetchRewardRedemptions({ ids: ['a'], status: 'pending' }),
      'ids',
      /cannot be combined/,
    ],
    [
      'a 6-second ad break',
      (m) => m.kick.client.createAdBreak({ breakDurationSeconds: 6 }),
      'break_duration_seconds',
      /between 7 and 300/,
    ],
    [
      'a 301-second ad break',
      (m) => m.kick.client.createAdBreak({ breakDurationSeconds: 301 }),
      'break_duration_seconds',
      /between 7 and 300/,
    ],
    [
      'an ad break id that is not a UUID',
      (m) => m.kick.client.createAdBreak({ breakDurationSeconds: 30, adBreakId: 'nope' }),
      'ad_break_id',
      /UUID/,
    ],
    [
      'a ban of 10081 minutes',
      (m) => m.kick.client.banUser({ broadcasterUserId: 1, userId: 2, duration: 10081 }),
      'duration',
      /between 1 and 10080/,
    ],
    [
      'a ban of 0 minutes',
      (m) => m.kick.client.banUser({ broadcasterUserId: 1, userId: 2, duration: 0 }),
      'duration',
      /between 1 and 10080/,
    ],
    [
      'a ban reason of 101 characters',
      (m) => m.kick.client.banUser({ broadcasterUserId: 1, userId: 2, reason: 'r'.repeat(101) }),
      'reason',
      /at most 100/,
    ],
    [
      'a reward title of 51 characters',
      (m) => m.kick.client.createChannelReward({ title: 't'.repeat(51), cost: 1 }),
      'title',
      /at most 50/,
    ],
    [
      'a reward cost of 0',
      (m) => m.kick.client.createChannelReward({ title: 'Hydrate', cost: 0 }),
      'cost',
      /at least 1/,
    ],
    [
      'a reward description of 201 characters',
      (m) => m.kick.client.createChannelReward({ title: 'Hydrate', cost: 5, description: 'd'.repeat(201) }),
      'description',
      /at most 200/,
    ],
    [
      'a reward colour that is not hex',
      (m) => m.kick.client.createChannelReward({ title: 'Hydrate', cost: 5, backgroundColor: 'green' }),
      'background_color',
      /hex/,
    ],
    [
      'a reward update with nothing in it',
      (m) => m.kick.client.updateChannelReward('01J0000000000000000000000A', {}),
      'reward',
      /at least one/,
    ],
    ['a leaderboard top of 101', (m) => m.kick.client.fetchKicksLeaderboard(101), 'top', /between 1 and 100/],
    ['a leaderboard top of 0', (m) => m.kick.client.fetchKicksLeaderboard(0), 'top', /between 1 and 100/],
    [
      '26 category filters on v2 livestreams',
      (m) => m.kick.client.fetchLivestreamsV2({ categoryIds: Array.from({ length: 26 }, (_, i) => i + 1) }),
      'category_ids',
      /at most 25/,
    ],
    [
      '26 language codes',
      (m) => m.kick.client.fetchLivestreamsV2({ languageCodes: Array.from({ length: 26 }, () => 'en') }),
      'language_codes',
      /at most 25/,
    ],
    [
      'a v2 livestream page of 1001',
      (m) => m.kick.client.fetchLivestreamsV2({ limit: 1001 }),
      'limit',
      /between 1 and 1000/,
    ],
    [
      '101 user ids for user livestreams',
      (m) => m.kick.client.fetchUserLivestreams(Array.from({ length: 101 }, (_, i) => i + 1)),
      'user_ids',
      /at most 100/,
    ],
    [
      '51 broadcasters on v1 livestreams',
      (m) => m.kick.client.fetchLivestreams({ broadcasterUserIds: Array.from({ length: 51 }, (_, i) => i + 1) }),
      'broadcaster_user_id',
      /at most 50/,
    ],
    [
      'a v1 livestream limit of 101',
      (m) => m.kick.client.fetchLivestreams({ limit: 101 }),
      'limit',
      /between 1 and 100/,
    ],
    ['a categories page of 0', (m) => m.kick.client.fetchCategories({ limit: 0 }), 'limit', /between 1 and 1000/],
    [
      'a channel by id and slug at once',
      (m) => m.kick.client.fetchChannel({ userId: 1, slug: 'x' }),
      'user_id, slug',
      /not both/,
    ],
    [
      'an unknown event type',
      (m) => m.kick.client.subscribeToEvent({ eventType: 'chat.message.deleted', userId: 1 }),
      'event_type[0]',
      /Kick's event types/,
    ],
  ];

  it.each(cases)('rejects %s naming the field and the limit', async (_name, act, field, limit) => {
    const error = await rejection(act(mock));
    expect(error.code).toBe('Validation');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(limit);
    expect(error.toValue().details).toMatchObject({ field });
  });

  it('counts chat length in code points, as Kick does', async () => {
    mock.api
      .intercept({ path: '/public/v1/chat', method: 'POST' })
      .reply(200, { data: { is_sent: true, message_id: 'm1' }, message: 'OK' });
    // 500 emoji are 1000 UTF-16 units but 500 characters.
    await expect(mock.kick.client.sendChatMessage({ content: '🎉'.repeat(500), type: 'bot' })).resolves.toEqual({
      is_sent: true,
      message_id: 'm1',
    });
    await expect(
      rejection(mock.kick.client.sendChatMessage({ content: '🎉'.repeat(501), type: 'bot' })),
    ).resolves.toBeInstanceOf(KickApiError);
  });
});
