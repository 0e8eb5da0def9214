"""Train the digits example's small CNN and write it as a float .tflite, with its data.

The data: scikit-learn's 8x8 handwritten digits (1,797 images, bundled inside the package: nothing is
downloaded), pixels scaled to [0, 1]. The first 1,200 images train the model and serve as
calibration samples; the other 597 are the evaluation set the precision search measures accuracy on.
The model: two 3x3 convolutions, a dense layer and a classifier, trained with Keras (TensorFlow,
`pip install tensorflow-cpu scikit-learn`), converted to float32 by TFLiteConverter.

    python examples/digits/train.py examples/digits

writes digits_float.tflite, calibration.npz, evaluation.npz and labels.npy there. The files in this
folder were made by that command (TensorFlow 2.21, scikit-learn 1.9, seed 0).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

TRAIN = 1200


def main(out: Path) -> None:
    import tensorflow as tf
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[..., None]  # [N, 8, 8, 1]
    labels = digits.target.astype(np.int64)
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([
        tf.keras.Input((8, 8, 1), batch_size=1),
        tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
        tf.keras.layers.Conv2D(16, 3, strides=2, padding="same", activation="relu"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(images[:TRAIN], labels[:TRAIN], batch_size=1, epochs=4, verbose=2)
    _, accuracy = model.evaluate(images[TRAIN:], labels[TRAIN:], batch_size=1, verbose=0)
    print(f"float accuracy on the {len(images) - TRAIN} evaluation images: {accuracy:.3f}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "digits_float.tflite").write_bytes(tf.lite.TFLiteConverter.from_keras_model(model).convert())
    np.savez(out / "calibration.npz", input_0=images[:TRAIN:4])  # 300 samples
    np.savez(out / "evaluation.npz", input_0=images[TRAIN:])
    np.save(out / "labels.npy", labels[TRAIN:])


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "."))
