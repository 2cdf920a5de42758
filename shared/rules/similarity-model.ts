// The learned scorer of "This was already said": logistic-regression weights over FEATURE_NAMES
// (shared/rules/similarity.ts), learned on the ArgKP-2021 training split. Written by
//   npx tsx scripts/argkp-train.ts <kpm_data folder> --write
// (do not edit by hand; run it again after changing a feature). One set for when the word vectors are
// loaded, one for shared words alone (its vector features weigh 0).
export interface SimilarityModel {
  bias: number;
  weights: readonly number[];
}

export const SIMILARITY_MODEL: { withVectors: SimilarityModel; wordsOnly: SimilarityModel } = {
  withVectors: {
    bias: -3.720462,
    weights: [
      0.713008, 0.687745, -0.911931, 0.671961, -0.296544, -0.899096, 1.736494, 2.015748, 0.335322, -0.026424, 0.166879, 0.274069, -0.632921,
      0.663648, 0.54652, 2.083352, 3.611145,
    ],
  },
  wordsOnly: {
    bias: -3.094338,
    weights: [
      1.12057, 0.0, 0.085937, 0.0, 0.085937, -0.420577, 1.313473, 1.922517, 0.288619, 0.106205, 0.057099, 0.127956, -0.551857, 0.0, 0.0,
      2.217757, 3.549123,
    ],
  },
};
