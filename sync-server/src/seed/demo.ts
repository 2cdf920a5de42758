// Demo debates for a first run: several categories, trees three levels deep with
// for/against/neutral replies, quotes, sources and a few votes. Written through
// the domain operations, so the data obeys every rule a real user's would. The first
// debate also shows where people stand: stances before the replies (so the
// votes count by side), and a changed mind crediting a reply with Δ.
import type { AuthUser } from '../auth/verifier.js';
import type { Category, ResponseType, Stance } from '../../../shared/constants.js';
import type { DomainContext } from '../domain/context.js';
import { createResponse } from '../domain/responses.js';
import { recordStance } from '../domain/stances.js';
import { createTopic } from '../domain/topics.js';
import { rememberUser } from '../domain/users.js';
import { setVote } from '../domain/votes.js';
import { isBusyError } from '../store/busy.js';

const PEOPLE: AuthUser[] = [
  { uid: 'demo-ada', name: 'Ada', email: null },
  { uid: 'demo-bashir', name: 'Bashir', email: null },
  { uid: 'demo-chen', name: 'Chen', email: null },
  { uid: 'demo-dana', name: 'Dana', email: null },
  { uid: 'demo-emeka', name: 'Emeka', email: null },
];

interface Reply {
  by: number;
  type: ResponseType;
  content: string;
  quote?: string; // key of an earlier reply in the same topic
  key?: string;
  sources?: { url: string; name?: string; description?: string }[];
  replies?: Reply[];
}

interface DemoTopic {
  by: number;
  title: string;
  category: Category;
  daysAgo: number;
  replies: Reply[];
  votes: number[];
  /** Each person's first stance (by index in PEOPLE), recorded before the replies. */
  stances?: (Stance | null)[];
  /** Minds changed after the replies, crediting a reply (by key) with Δ. */
  changes?: { by: number; to: Stance; credit?: string }[];
}

const TOPICS: DemoTopic[] = [
  {
    by: 0,
    title: 'Should cities make public transport free at the point of use?',
    category: 'Politics',
    daysAgo: 2,
    votes: [1, 2, 3],
    stances: ['unsure', 'agree', 'disagree', 'agree', 'disagree'],
    changes: [{ by: 2, to: 'agree', credit: 'tallinn' }],
    replies: [
      {
        by: 1,
        type: 'for',
        key: 'tallinn',
        content:
          'Tallinn has run fare-free transit for residents since 2013. Ridership rose and the city gained tax-paying residents who registered to qualify.',
        sources: [
          {
            url: 'https://en.wikipedia.org/wiki/Public_transport_in_Tallinn',
            name: 'Public transport in Tallinn',
            description: 'Overview of the fare-free scheme and its results.',
          },
        ],
        replies: [
          {
            by: 2,
            type: 'against',
            content: 'Most of the new riders came from walking and cycling, not from cars. Free fares alone barely move drivers.',
            replies: [
              {
                by: 1,
                type: 'neutral',
                content: 'Fair, but congestion was never the only goal: access for low-income residents counts too.',
              },
            ],
          },
        ],
      },
      {
        by: 3,
        type: 'against',
        key: 'funding',
        content: 'Fares fund a large share of operating costs. Without them, service frequency is the first thing cut in a budget squeeze.',
        replies: [
          {
            by: 4,
            type: 'for',
            quote: 'tallinn',
            content: 'Tallinn shows the budget can work when fares were a small share of revenue to begin with.',
          },
        ],
      },
      { by: 4, type: 'neutral', content: 'Would a flat low fare capture most of the benefit without the revenue hole?' },
    ],
  },
  {
    by: 2,
    title: 'Is nuclear power essential to reaching net zero?',
    category: 'Environment',
    daysAgo: 5,
    votes: [0, 1, 3, 4],
    replies: [
      {
        by: 0,
        type: 'for',
        key: 'baseload',
        content:
          'Firm low-carbon capacity makes a grid with lots of wind and solar far cheaper to balance. Nuclear is the proven option at scale.',
        sources: [
          {
            url: 'https://www.iea.org/reports/nuclear-power-in-a-clean-energy-system',
            name: 'IEA: Nuclear Power in a Clean Energy System',
          },
        ],
        replies: [
          {
            by: 3,
            type: 'against',
            content: 'New plants in Europe and the US ran years late and billions over budget. Storage costs are falling faster.',
            replies: [
              { by: 0, type: 'for', content: 'Korea and the UAE built on time. The overruns are about lost know-how, not physics.' },
              { by: 2, type: 'neutral', content: 'Both can be true: keep existing plants running, and be careful with new builds.' },
            ],
          },
        ],
      },
      {
        by: 4,
        type: 'against',
        quote: 'baseload',
        content: 'Firm capacity can also come from geothermal, hydro and long-duration storage.',
      },
    ],
  },
  {
    by: 1,
    title: 'Should schools ban smartphones during the school day?',
    category: 'Education',
    daysAgo: 1,
    votes: [0, 4],
    replies: [
      {
        by: 3,
        type: 'for',
        content: 'Teachers report fewer distractions and more conversation at lunch where phones are locked away.',
        replies: [
          {
            by: 4,
            type: 'against',
            content: 'Anecdotes are not evidence. The controlled studies find small effects on grades.',
            sources: [
              {
                url: 'https://doi.org/10.1016/j.labeco.2016.05.006',
                name: 'Ill communication: technology, distraction & student performance',
              },
            ],
            replies: [{ by: 3, type: 'neutral', content: 'Small effects on grades, maybe. Wellbeing is the bigger question.' }],
          },
        ],
      },
      { by: 0, type: 'neutral', content: 'What about students who need a phone for medical reasons?' },
    ],
  },
  {
    by: 3,
    title: 'Will AI coding assistants make junior developers obsolete?',
    category: 'Technology',
    daysAgo: 9,
    votes: [1],
    replies: [
      {
        by: 2,
        type: 'against',
        content: 'Every senior developer was once a junior. Firms that stop hiring juniors will have no seniors in ten years.',
        replies: [
          {
            by: 0,
            type: 'for',
            content: 'That is a collective action problem: each firm still saves by not hiring.',
            replies: [{ by: 2, type: 'neutral', content: 'Apprenticeships funded by industry bodies could solve exactly that.' }],
          },
        ],
      },
    ],
  },
  {
    by: 4,
    title: 'Is a four-day work week good for the economy?',
    category: 'Economics',
    daysAgo: 20,
    votes: [],
    replies: [
      { by: 1, type: 'for', content: 'Pilots in the UK kept output steady while sick days fell.' },
      { by: 2, type: 'against', content: 'The pilots were volunteer firms that expected to gain. Selection bias is huge.' },
    ],
  },
  {
    by: 0,
    title: 'Does free will survive modern neuroscience?',
    category: 'Philosophy',
    daysAgo: 40,
    votes: [2],
    replies: [{ by: 3, type: 'neutral', content: 'Depends entirely on which definition of free will you start from.' }],
  },
];

export async function seedDemo(limited: DomainContext): Promise<void> {
  // The demo people are new accounts posting several topics at once: no new-account limits here.
  const { moderation: _limits, ...base } = limited;
  const realNow = base.clock();
  for (const person of PEOPLE) await rememberUser(base, person);
  for (const topic of TOPICS) {
    let minutes = 0;
    const start = realNow.getTime() - topic.daysAgo * 86_400_000;
    // Each write lands a few minutes after the previous one, as a real debate would.
    const ctx: DomainContext = { ...base, clock: () => new Date(start + minutes++ * 7 * 60_000) };
    const created = await createTopic(ctx, PEOPLE[topic.by]!, { title: topic.title, categories: [topic.category] });
    for (const [index, stance] of (topic.stances ?? []).entries()) {
      if (stance) await recordStance(ctx, PEOPLE[index]!.uid, created.id, { stance });
    }
    const keys = new Map<string, string>();
    const post = async (reply: Reply, parentId: string | null) => {
      const response = await createResponse(ctx, PEOPLE[reply.by]!, {
        content: reply.content,
        type: reply.type,
        topic_id: created.id,
        parent_response_id: parentId,
        quoted_response_id: reply.quote ? keys.get(reply.quote) : null,
        sources: reply.sources,
      });
      if (reply.key) keys.set(reply.key, response.id);
      for (const [index, person] of PEOPLE.entries()) {
        if (index !== reply.by && (index + reply.content.length) % 3 === 0) {
          await setVote(ctx, person, 'response', response.id, true);
        }
      }
      for (const child of reply.replies ?? []) await post(child, response.id);
    };
    for (const reply of topic.replies) await post(reply, null);
    for (const change of topic.changes ?? []) {
      const credits = change.credit ? [keys.get(change.credit)!] : [];
      await recordStance(ctx, PEOPLE[change.by]!.uid, created.id, { stance: change.to, credits });
    }
    for (const voter of topic.votes) await setVote(ctx, PEOPLE[voter]!, 'topic', created.id, true);
  }
}

/**
 * Seeds the demo debates if the site has no topics, and says whether it did. The check and the
 * writes are one write transaction, and write transactions take turns on both engines (SQLite's
 * BEGIN IMMEDIATE, PostgreSQL's seq lock at BEGIN), so two server processes starting at once on
 * one empty database seed it once: the second finds the first one's topics.
 */
export async function seedDemoIfEmpty(ctx: DomainContext): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.store.transaction(async () => {
        if (!(await ctx.store.isEmpty())) return false;
        await seedDemo(ctx);
        return true;
      });
    } catch (error) {
      // Another process held the write lock past the busy timeout (seeding, say): look again.
      if (!isBusyError(error) || attempt >= 3) throw error;
    }
  }
}

/**
 * Each demo debate's response texts, in posting order: the "already said" measure (* tests/shared/similarity.test.ts) checks its near-copy catch rate and its false alarms on them.
 */
export function demoResponseTexts(): { title: string; texts: string[] }[] {
  const texts = (replies: Reply[]): string[] => replies.flatMap((reply) => [reply.content, ...texts(reply.replies ?? [])]);
  return TOPICS.map((topic) => ({ title: topic.title, texts: texts(topic.replies) }));
}
