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
    bias: -4.677637,
    weights: [
      -0.950288, 0.55833, 0.395111, 0.739922, 0.703137, -0.912476, 1.613301, 1.291587, 0.353703, 0.4565, 0.066451, 0.043852, 0.061078,
      1.500365, 0.800555, 2.514935, 5.476985, -2.154654, 2.106785, -4.691632, 7.283124, -0.513671, -2.295445, -2.401822, -0.133547,
      0.180336, -0.198479, 1.066922,
    ],
  },
  wordsOnly: {
    bias: -3.457813,
    weights: [
      -0.080261, 0.0, 1.293638, 0.0, 1.293638, -0.389051, 1.240067, 1.219629, 0.344361, 0.0993, 0.157271, 0.099541, 0.159023, 0.0, 0.0,
      2.374338, 6.121922, -2.256364, 3.32498, -5.972162, 6.279156, -2.256364, -1.648035, 0.0, 0.0, 0.114087, 0.283441, 1.217809,
    ],
  },
};
