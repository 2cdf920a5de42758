// The writes of CruxData over the current world's actions (actions.ts), answered with the view
// the screens show; and the calls on the user's own data (drafts, export, sync problems). Those
// made as the user wait for the sign-in under way: client.ts wraps them (session.ts).
import type { PushSettings } from '../../../shared/push.js';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import type { ReportReason, ReportTargetType, Stance, TargetType, VoteValue } from '../../../shared/constants.js';
import { notFound, unauthorized } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import type { CruxData, EditResponseInput, NewResponseInput, NewTopicInput } from './api.js';
import { exportMyData, importDrafts } from './export.js';
import { problemsIn } from './problems.js';
import type { SessionState } from './session.js';
import type { Worlds } from './world.js';

async function viewOf<T>(source: Observable<T | null | undefined>): Promise<T> {
  return firstValueFrom(source.pipe(filter((value): value is T => value !== null && value !== undefined)));
}

export function createWrites(worlds: Worlds, session: SessionState) {
  const world = () => worlds.current();
  const signedInSession = () => {
    const current = session.current();
    if (!current) throw unauthorized(MSG.loginToSeeNotifications);
    return current;
  };

  return {
    async createTopic(input: NewTopicInput) {
      const w = world();
      const id = await w.actions.createTopic(input);
      return viewOf(w.queries.topic$(id));
    },
    deleteTopic: (topicId: string) => world().actions.deleteTopic(topicId),
    async createResponse(input: NewResponseInput) {
      const w = world();
      const id = await w.actions.createResponse(input);
      await w.follows.open(input.topicId);
      const views = await firstValueFrom(w.queries.topicResponses$(input.topicId).pipe(filter((list) => list.some((r) => r.id === id))));
      return views.find((r) => r.id === id)!;
    },
    editResponse: (responseId: string, input: EditResponseInput) => world().actions.editResponse(responseId, input),
    deleteResponse: (responseId: string) => world().actions.deleteResponse(responseId),
    toggleVote: (targetType: TargetType, targetId: string) => world().actions.toggleVote(targetType, targetId),
    castVote: (targetType: TargetType, targetId: string, value: VoteValue | null) => world().actions.castVote(targetType, targetId, value),
    setStance: (topicId: string, stance: Stance) => world().actions.setStance(topicId, stance),
    creditDeltas: (topicId: string, responseIds: string[]) => world().actions.creditDeltas(topicId, responseIds),
    blockUser: (uid: string, displayName: string | null) => world().actions.blockUser(uid, displayName),
    unblockUser: (uid: string) => world().actions.unblockUser(uid),
    followTopic: (topicId: string, title: string | null) => world().actions.followTopic(topicId, title),
    unfollowTopic: (topicId: string) => world().actions.unfollowTopic(topicId),
    report: (targetType: ReportTargetType, targetId: string, reason: ReportReason, note?: string | null) =>
      world().actions.report(targetType, targetId, reason, note ?? null),
    markRead: (notificationId: string) => world().actions.markRead(notificationId),
    markAllRead: () => world().actions.markAllRead(),
    setWeeklySummary: (receive: boolean) => world().actions.setWeeklySummary(receive),
    setPushSettings: (settings: PushSettings) => world().actions.setPushSettings(settings),
    saveDraft: (key: string, text: string, extra?: Record<string, unknown>) => world().actions.saveDraft(key, text, extra),
    // On a reload the composer asks before the user's database is open: a 'user-call', it waits for the sign-in.
    loadDraft: (key: string) => world().actions.loadDraft(key),
    deleteDraft: (key: string) => world().actions.deleteDraft(key),
    unsentDrafts: (key: string) => world().actions.unsentDrafts(key),
    adoptDraft: (owner: string, key: string, text: string) => world().actions.adoptDraft(owner, key, text),
    discardDraft: (owner: string, key: string) => world().actions.discardDraft(owner, key),
    async openTopic(topicId: string) {
      await world().follows.open(topicId);
      // An opened topic is kept: asked of the server when the device does not hold it yet.
      await world().workingSet.show(topicId);
      world().controller.resyncResponses();
    },
    async saveTopicOffline(topicId: string, saved: boolean) {
      await world().follows.setSaved(topicId, saved);
      world().controller.resyncResponses();
    },
    fixProblem: (problemId: string, patch?: Record<string, unknown>) => world().fixer.fix(problemId, patch),
    resolveConflict: (problemId, choice) => world().fixer.resolveConflict(problemId, choice),
    async discardProblem(problemId: string) {
      const current = session.current();
      const removed = current ? await problemsIn(current.db).remove(problemId) : false;
      if (!removed) throw notFound('This problem no longer exists.');
    },
    exportMyData: async () => exportMyData(world().publicDb, signedInSession()),
    importDrafts: async (exported: unknown) => importDrafts(world().publicDb, signedInSession(), exported),
  } satisfies Partial<CruxData>;
}
