// The field and expansion names X accepts (https://docs.x.com/x-api/fundamentals/fields,
// https://docs.x.com/x-api/fundamentals/expansions). Names outside these lists are refused with a 400, as X
// does; names inside them that the simulation has no data for are accepted and left out of the answer.

/** `tweet.fields` names. */
export const TWEET_FIELDS = new Set([
  'article',
  'attachments',
  'author_id',
  'card_uri',
  'community_id',
  'context_annotations',
  'conversation_id',
  'created_at',
  'display_text_range',
  'edit_controls',
  'edit_history_tweet_ids',
  'entities',
  'geo',
  'id',
  'in_reply_to_user_id',
  'lang',
  'media_metadata',
  'non_public_metrics',
  'note_tweet',
  'organic_metrics',
  'possibly_sensitive',
  'promoted_metrics',
  'public_metrics',
  'referenced_tweets',
  'reply_settings',
  'scopes',
  'source',
  'text',
  'withheld',
]);

/** `user.fields` names. */
export const USER_FIELDS = new Set([
  'affiliation',
  'connection_status',
  'created_at',
  'description',
  'entities',
  'id',
  'is_identity_verified',
  'location',
  'most_recent_tweet_id',
  'name',
  'parody',
  'pinned_tweet_id',
  'profile_banner_url',
  'profile_image_url',
  'protected',
  'public_metrics',
  'receives_your_dm',
  'subscription_type',
  'url',
  'username',
  'verified',
  'verified_followers_count',
  'verified_type',
  'withheld',
]);

/** Expansions of endpoints that answer posts. */
export const TWEET_EXPANSIONS = new Set([
  'attachments.media_keys',
  'attachments.poll_ids',
  'author_id',
  'edit_history_tweet_ids',
  'entities.mentions.username',
  'geo.place_id',
  'in_reply_to_user_id',
  'referenced_tweets.id',
  'referenced_tweets.id.author_id',
]);

/** Expansions of endpoints that answer users. */
export const USER_EXPANSIONS = new Set(['affiliation.user_id', 'most_recent_tweet_id', 'pinned_tweet_id']);

/** Per-object field parameters X takes beside tweet.fields and user.fields (accepted; nothing to answer). */
export const OTHER_FIELD_PARAMS = ['media.fields', 'place.fields', 'poll.fields'];
