// Whether a new token ends the client's older ones (REQ-LIFE-05), told apart from a server that forgot every token it
// had issued meanwhile (a restart): once is not enough, since both refuse the older token; the newer one must be
// refused in turn once a token newer still is issued.
import { readProbe, type TokenJar } from '../../kit/index.js';
import { type CheckContext } from '../../../src/engine/index.js';

/**
 * After an older token was refused once a newer one was issued: whether a new token ends the older ones. The newer
 * must work, then be refused (401) once a further token is issued: new tokens end the older ones (the newer is
 * forgotten by the jar). Otherwise the older ended for another reason, and the check skips saying `why` and what was
 * seen (the older token's refusal is no reading), so that the session runs it once more when the run's token ended too.
 */
export async function confirmNewTokenEndsOlder(
  ctx: CheckContext,
  jar: TokenJar,
  newer: string,
  why: string,
): Promise<void> {
  const probe = readProbe(ctx);
  const now = await ctx.send({ ...probe, token: newer });
  if (now.status === 401)
    ctx.skip(
      `${why}, and the newer was refused too (401): the server ended every token (a restart?), not the older ones alone`,
    );
  await jar.issue();
  const again = await ctx.send({ ...probe, token: newer });
  if (again.status !== 401)
    ctx.skip(
      `${why}, but the newer was still accepted (${again.status}) once a token newer still was issued: the older ended for another reason (a restart?), not for the new token`,
    );
  jar.forget(newer);
}
