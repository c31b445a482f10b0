// JSON of knowledge gaps (domain/gaps.h), written alike by the console and the admin CLI: a group
// {id, question, count, channels, firstAskedAt, lastAskedAt, resolved, resolvedAt,
// answerSourceId}, and with its questions {..., conversations: [{conversationId, messageId,
// question, channel, reason, askedAt}]}. Stateless.
#pragma once

#include "core/json.h"
#include "domain/gaps.h"

namespace parley {

void write_gap_group_json(JsonWriter& w, const GapGroupView& g);
void write_gap_detail_json(JsonWriter& w, const GapDetail& d);
// {data: source, result, training, gap: group or null}: "Answer this" and "Improve answer".
void write_gap_answered_json(JsonWriter& w, const GapAnswered& a);

}  // namespace parley
