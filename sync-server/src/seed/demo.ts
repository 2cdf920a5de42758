// Demo debates for a first run: several categories, trees three levels deep with
// for/against/neutral replies, quotes, sources, stances and votes. Written through the domain
// operations, so the data obeys every rule a real user's would. Every debate has people on both
// sides who upvote their side's arguments (the strongest case on each side shows), and the first
// one holds what the rest of the topic page needs to show itself: a crowd whose agree and disagree
// votes fall into opinion groups, a response both sides approve (common ground), a changed mind
// crediting a reply with Δ, and a late reply restating an earlier point ("already said").
import type { AuthUser } from '../auth/verifier.js';
import { VOTE_VALUES, type Category, type ResponseType, type Stance, type VoteValue } from '../../../shared/constants.js';
import { sidesOf } from '../../../shared/rules/strongest-case.js';
import type { DomainContext } from '../domain/context.js';
import { refreshOpinionGroups } from '../domain/opinion-groups.js';
import { createResponse } from '../domain/responses.js';
import { recordStance } from '../domain/stances.js';
import { createTopic } from '../domain/topics.js';
import { rememberUser } from '../domain/users.js';
import { castVote, setVote } from '../domain/votes.js';
import { isBusyError } from '../store/busy.js';

const NAMES = [
  'Ada',
  'Bashir',
  'Chen',
  'Dana',
  'Emeka',
  'Farah',
  'Gustavo',
  'Hana',
  'Ingrid',
  'Jomo',
  'Kenji',
  'Leila',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
  'Rafael',
  'Siobhan',
] as const;
type Name = (typeof NAMES)[number];
const person = (name: Name): AuthUser => ({ uid: `demo-${name.toLowerCase()}`, name, email: null });

interface Reply {
  by: Name;
  /** A root's side of the question; a reply's agreement with its parent (disagreeing takes the other side). */
  type: ResponseType;
  content: string;
  quote?: string; // key of an earlier reply in the same topic
  key?: string;
  /** Key of the earlier reply this one restates: a repeat on purpose, the "already said" hint's case. */
  restates?: string;
  sources?: { url: string; name?: string; description?: string }[];
  replies?: Reply[];
}

interface DemoTopic {
  by: Name;
  title: string;
  category: Category;
  daysAgo: number;
  replies: Reply[];
  votes: Name[];
  /** Each person's first stance, recorded before the replies. */
  stances: Partial<Record<Name, Stance>>;
  /**
   * Each person's votes on the responses, read one after another once all are posted: `keys` names
   * the responses, and each row's marks follow them (+ agree, - disagree, 0 pass, . no vote). Without
   * ballots, people who took a side upvote that side's arguments, and the unsure the neutral ones.
   */
  ballots?: { keys: string[]; rows: [Name, string][] };
  /** Minds changed after the votes, crediting a reply (by key) with Δ. */
  changes?: { by: Name; to: Stance; credit?: string }[];
}

const TOPICS: DemoTopic[] = [
  {
    by: 'Ada',
    title: 'Should cities make public transport free at the point of use?',
    category: 'Politics',
    daysAgo: 2,
    votes: ['Bashir', 'Chen', 'Dana', 'Farah', 'Hana', 'Jomo', 'Mateo', 'Priya', 'Siobhan'],
    stances: {
      Ada: 'unsure',
      Bashir: 'agree',
      Chen: 'disagree',
      Dana: 'disagree',
      Emeka: 'agree',
      Farah: 'agree',
      Gustavo: 'disagree',
      Hana: 'agree',
      Ingrid: 'unsure',
      Jomo: 'agree',
      Kenji: 'disagree',
      Leila: 'agree',
      Mateo: 'disagree',
      Nadia: 'agree',
      Oskar: 'disagree',
      Priya: 'agree',
      Rafael: 'disagree',
      Siobhan: 'unsure',
    },
    changes: [{ by: 'Chen', to: 'agree', credit: 'tallinn' }],
    replies: [
      {
        by: 'Bashir',
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
            by: 'Chen',
            type: 'against',
            key: 'walkers',
            content: 'Most of the new riders came from walking and cycling, not from cars. Free fares alone barely move drivers.',
            replies: [
              {
                by: 'Bashir',
                type: 'neutral',
                key: 'access',
                content: 'Fair, but congestion was never the only goal: access for low-income residents counts too.',
              },
            ],
          },
        ],
      },
      {
        by: 'Dana',
        type: 'against',
        key: 'funding',
        content: 'Fares fund a large share of operating costs. Without them, service frequency is the first thing cut in a budget squeeze.',
        replies: [
          {
            by: 'Emeka',
            type: 'against',
            key: 'budget',
            quote: 'tallinn',
            content: 'Tallinn shows the budget can work when fares were a small share of revenue to begin with.',
          },
        ],
      },
      {
        by: 'Ingrid',
        type: 'neutral',
        key: 'flat-fare',
        content: 'Would a flat low fare capture most of the benefit without the revenue hole?',
      },
      {
        by: 'Farah',
        type: 'for',
        key: 'dunkirk',
        content:
          'Dunkirk made its buses free in 2018 and redesigned the network at the same time. Weekday ridership rose by more than half, and many new riders used to drive.',
        sources: [
          {
            url: 'https://en.wikipedia.org/wiki/Free_public_transport',
            name: 'Free public transport',
            description: 'Cities that abolished fares, Dunkirk among them.',
          },
        ],
      },
      {
        by: 'Gustavo',
        type: 'against',
        key: 'crowding',
        content:
          'On the busiest lines the problem is crowding, not price. Free rides add short hops at rush hour to buses that are already full.',
        replies: [
          {
            by: 'Jomo',
            type: 'against',
            key: 'off-peak',
            content: 'Off-peak buses run half empty. Free fares fill those seats; rush-hour crowding needs more buses whatever the fare.',
          },
        ],
      },
      {
        by: 'Hana',
        type: 'for',
        key: 'collection',
        content:
          'Collecting fares costs money too: ticket machines, inspectors and slower boarding at every stop. In smaller systems that eats much of what the fares bring in.',
      },
      {
        by: 'Ada',
        type: 'neutral',
        key: 'frequency',
        content: 'Whatever the price, frequency decides. A bus every five minutes wins riders that a free bus every half hour never will.',
      },
      {
        by: 'Oskar',
        type: 'against',
        key: 'repeat',
        restates: 'funding',
        content:
          'Fares pay for a big share of running costs. Take them away and frequency is the first thing to be cut when the budget gets squeezed.',
      },
    ],
    // Two camps read the thread and vote along their side, with the odd exception; the unsure mix.
    ballots: {
      keys: [
        'tallinn',
        'walkers',
        'access',
        'funding',
        'budget',
        'flat-fare',
        'dunkirk',
        'crowding',
        'collection',
        'frequency',
        'repeat',
        'off-peak',
      ],
      rows: [
        ['Bashir', '. - . - + 0 + - + + . +'],
        ['Dana', '- + 0 . - + - + - + + -'],
        ['Emeka', '+ - + 0 . 0 + - + + - +'],
        ['Ada', '+ + + + 0 + 0 + 0 . 0 0'],
        ['Gustavo', '- + . + - + - . - + . -'],
        ['Farah', '+ - + - + - . - + + . +'],
        ['Chen', '- . 0 + - + - + - + + -'],
        ['Hana', '+ 0 + - + 0 + - . + - +'],
        ['Kenji', '- + 0 + - + 0 + - + + .'],
        ['Jomo', '+ - + + + 0 + - + + . .'],
        ['Ingrid', '0 + + + + . + + 0 + . 0'],
        ['Mateo', '+ + - + - + - + - 0 + -'],
        ['Leila', '+ - . - + - + 0 + + - +'],
        ['Oskar', '- + 0 + . + - + - + . -'],
        ['Nadia', '+ - + - . 0 + - + 0 - +'],
        ['Rafael', '- + 0 + - 0 - + . + + -'],
        ['Priya', '+ - + + + . + - + + . +'],
        ['Siobhan', '+ 0 + + 0 + + . + + + 0'],
      ],
    },
  },
  {
    by: 'Chen',
    title: 'Is nuclear power essential to reaching net zero?',
    category: 'Environment',
    daysAgo: 5,
    votes: ['Ada', 'Bashir', 'Dana', 'Emeka'],
    stances: { Ada: 'agree', Bashir: 'agree', Chen: 'unsure', Dana: 'disagree', Emeka: 'disagree', Farah: 'agree', Gustavo: 'disagree' },
    changes: [{ by: 'Chen', to: 'agree', credit: 'on-time' }],
    replies: [
      {
        by: 'Ada',
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
            by: 'Dana',
            type: 'against',
            content: 'New plants in Europe and the US ran years late and billions over budget. Storage costs are falling faster.',
            replies: [
              {
                by: 'Ada',
                type: 'against',
                key: 'on-time',
                content: 'Korea and the UAE built on time. The overruns are about lost know-how, not physics.',
              },
              { by: 'Chen', type: 'neutral', content: 'Both can be true: keep existing plants running, and be careful with new builds.' },
            ],
          },
        ],
      },
      {
        by: 'Emeka',
        type: 'against',
        quote: 'baseload',
        content: 'Firm capacity can also come from geothermal, hydro and long-duration storage.',
      },
    ],
  },
  {
    by: 'Bashir',
    title: 'Should schools ban smartphones during the school day?',
    category: 'Education',
    daysAgo: 1,
    votes: ['Ada', 'Emeka', 'Hana'],
    stances: { Ada: 'unsure', Bashir: 'agree', Dana: 'agree', Emeka: 'disagree', Hana: 'agree', Kenji: 'disagree' },
    replies: [
      {
        by: 'Dana',
        type: 'for',
        content: 'Teachers report fewer distractions and more conversation at lunch where phones are locked away.',
        replies: [
          {
            by: 'Emeka',
            type: 'against',
            content: 'Anecdotes are not evidence. The controlled studies find small effects on grades.',
            sources: [
              {
                url: 'https://doi.org/10.1016/j.labeco.2016.05.006',
                name: 'Ill communication: technology, distraction & student performance',
              },
            ],
            replies: [{ by: 'Dana', type: 'neutral', content: 'Small effects on grades, maybe. Wellbeing is the bigger question.' }],
          },
        ],
      },
      { by: 'Ada', type: 'neutral', content: 'What about students who need a phone for medical reasons?' },
    ],
  },
  {
    by: 'Dana',
    title: 'Will AI coding assistants make junior developers obsolete?',
    category: 'Technology',
    daysAgo: 9,
    votes: ['Bashir', 'Kenji'],
    stances: { Ada: 'agree', Chen: 'disagree', Dana: 'agree', Jomo: 'disagree', Kenji: 'agree', Leila: 'unsure' },
    replies: [
      {
        by: 'Chen',
        type: 'against',
        content: 'Every senior developer was once a junior. Firms that stop hiring juniors will have no seniors in ten years.',
        replies: [
          {
            by: 'Ada',
            type: 'against',
            content: 'That is a collective action problem: each firm still saves by not hiring.',
            replies: [{ by: 'Chen', type: 'neutral', content: 'Apprenticeships funded by industry bodies could solve exactly that.' }],
          },
        ],
      },
      {
        by: 'Kenji',
        type: 'for',
        content: 'The assistants already write the boilerplate and glue code that used to fill a new hire’s first year.',
      },
    ],
  },
  {
    by: 'Emeka',
    title: 'Is a four-day work week good for the economy?',
    category: 'Economics',
    daysAgo: 20,
    votes: ['Nadia'],
    stances: { Bashir: 'agree', Chen: 'disagree', Emeka: 'agree', Nadia: 'agree', Oskar: 'disagree', Priya: 'unsure' },
    replies: [
      { by: 'Bashir', type: 'for', content: 'Pilots in the UK kept output steady while sick days fell.' },
      { by: 'Chen', type: 'against', content: 'The pilots were volunteer firms that expected to gain. Selection bias is huge.' },
      {
        by: 'Priya',
        type: 'neutral',
        content: 'Four ten-hour days and four eight-hour days are very different policies. Which one is meant here?',
      },
    ],
  },
  {
    by: 'Ada',
    title: 'Does free will survive modern neuroscience?',
    category: 'Philosophy',
    daysAgo: 40,
    votes: ['Chen', 'Mateo'],
    stances: { Ada: 'unsure', Chen: 'disagree', Dana: 'unsure', Mateo: 'agree', Rafael: 'disagree', Siobhan: 'agree' },
    replies: [
      { by: 'Dana', type: 'neutral', content: 'Depends entirely on which definition of free will you start from.' },
      {
        by: 'Mateo',
        type: 'for',
        content:
          'Compatibilism never needed uncaused choices: a decision that flows from my own reasons and values is free, whatever neurons carry it out.',
      },
      {
        by: 'Rafael',
        type: 'against',
        content:
          'In Libet-style experiments, brain activity predicts a movement before people report deciding to make it. The feeling of choosing comes late.',
        replies: [
          {
            by: 'Siobhan',
            type: 'against',
            content:
              'Later work read that readiness potential as background noise drifting towards a threshold, not a decision made in advance.',
          },
        ],
      },
    ],
  },
];

const stanceEntries = (topic: DemoTopic) => Object.entries(topic.stances) as [Name, Stance][];

const MARKS: Record<string, VoteValue | null> = { '+': VOTE_VALUES.agree, '-': VOTE_VALUES.disagree, '0': VOTE_VALUES.pass, '.': null };

export async function seedDemo(limited: DomainContext): Promise<void> {
  // The demo people are new accounts posting several topics at once: no new-account limits here.
  const { moderation: _limits, ...base } = limited;
  const realNow = base.clock();
  for (const name of NAMES) await rememberUser(base, person(name));
  const topicIds: string[] = [];
  for (const topic of TOPICS) {
    let minutes = 0;
    const start = realNow.getTime() - topic.daysAgo * 86_400_000;
    // Each write lands a few minutes after the previous one, as a real debate would.
    const ctx: DomainContext = { ...base, clock: () => new Date(start + minutes++ * 7 * 60_000) };
    const created = await createTopic(ctx, person(topic.by), { title: topic.title, categories: [topic.category] });
    topicIds.push(created.id);
    // Stances first, so each vote counts on its voter's side.
    for (const [name, stance] of stanceEntries(topic)) await recordStance(ctx, person(name).uid, created.id, { stance });
    const keys = new Map<string, string>();
    const posted: { id: string; by: Name; type: ResponseType; parent_response_id: string | null }[] = [];
    const post = async (reply: Reply, parentId: string | null) => {
      const response = await createResponse(ctx, person(reply.by), {
        content: reply.content,
        type: reply.type,
        topic_id: created.id,
        parent_response_id: parentId,
        quoted_response_id: reply.quote ? keys.get(reply.quote) : null,
        sources: reply.sources,
      });
      if (reply.key) keys.set(reply.key, response.id);
      posted.push({ id: response.id, by: reply.by, type: reply.type, parent_response_id: parentId });
      for (const child of reply.replies ?? []) await post(child, response.id);
    };
    for (const reply of topic.replies) await post(reply, null);
    if (topic.ballots) {
      const { keys: columns, rows } = topic.ballots;
      for (const [voter, row] of rows) {
        const marks = row.split(' ');
        // A mistyped row would quietly shift every later vote onto the wrong response.
        if (marks.length !== columns.length || marks.some((mark) => !(mark in MARKS))) throw new Error(`demo ballot of ${voter}: ${row}`);
        for (const [column, mark] of marks.entries()) {
          const value = MARKS[mark];
          if (value !== null && value !== undefined) await castVote(ctx, person(voter), 'response', keys.get(columns[column]!)!, value);
        }
      }
    } else {
      const sides = sidesOf(posted);
      for (const response of posted) {
        const side = sides.get(response.id) ?? null;
        const wanted: Stance = side === 'for' ? 'agree' : side === 'against' ? 'disagree' : 'unsure';
        for (const [name, stance] of stanceEntries(topic)) {
          if (stance === wanted && name !== response.by) await setVote(ctx, person(name), 'response', response.id, true);
        }
      }
    }
    for (const change of topic.changes ?? []) {
      const credits = change.credit ? [keys.get(change.credit)!] : [];
      await recordStance(ctx, person(change.by).uid, created.id, { stance: change.to, credits });
    }
    for (const voter of topic.votes) await setVote(ctx, person(voter), 'topic', created.id, true);
  }
  // The grouping job only looks at topics voted on while it runs or in the last day: the demo's
  // opinion groups are worked out now, so the first visit shows them.
  for (const topicId of topicIds) await refreshOpinionGroups(base, topicId);
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
 * Each demo debate's response texts, in posting order, and the pairs of them (indexes into `texts`)
 * that make the same point on purpose: the "already said" measure (* tests/shared/similarity.test.ts)
 * checks its near-copy catch rate on them, and that no other two flag each other.
 */
export function demoResponseTexts(): { title: string; texts: string[]; restated: [number, number][] }[] {
  return TOPICS.map((topic) => {
    const all: Reply[] = [];
    const walk = (replies: Reply[]) => replies.forEach((reply) => (all.push(reply), walk(reply.replies ?? [])));
    walk(topic.replies);
    const at = (key: string) => all.findIndex((reply) => reply.key === key);
    const restated = all.flatMap((reply, i): [number, number][] => (reply.restates ? [[at(reply.restates), i]] : []));
    return { title: topic.title, texts: all.map((reply) => reply.content), restated };
  });
}
