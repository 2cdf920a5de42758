// The learned scorer of "This was already said": logistic-regression weights over FEATURE_NAMES
// (shared/rules/similarity.ts), learned on the ArgKP-2021 training split (its topics whole and shrunk
// to a dozen responses). Written by
//   npx tsx scripts/argkp-train.ts <kpm_data folder> --write
// (do not edit by hand; run it again after changing a feature). One set for when the word vectors are
// loaded, one for shared words alone (its vector features weigh 0).
export interface SimilarityModel {
  bias: number;
  weights: readonly number[];
}

export const SIMILARITY_MODEL: { withVectors: SimilarityModel; wordsOnly: SimilarityModel } = {
  withVectors: {
    bias: -4.394014,
    weights: [
      -1.419503, 0.649941, 2.065957, 0.511764, 1.761276, -0.857954, 1.70428, 2.063112, 0.36367, -0.018571, 0.356645, 0.313099, -0.19515,
      0.550846, 0.440262, 2.41636, 5.307909, -3.39459, 2.073482, -4.723666, 7.81224, -1.69025, -2.821139,
    ],
  },
  wordsOnly: {
    bias: -3.546382,
    weights: [
      -0.440776, 0.0, 2.671171, 0.0, 2.671171, -0.408029, 1.257879, 1.539334, 0.312395, 0.094618, 0.184993, 0.073238, -0.160574, 0.0, 0.0,
      2.264405, 6.096545, -3.044638, 3.317585, -6.187509, 6.261798, -3.044638, -2.055952,
    ],
  },
};
