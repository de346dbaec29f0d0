"""Blind evaluation set D for the secret filter.

Written blind on 2026-12-01, without looking at the filter's code or at any
other evaluation set. Every value is invented (or freshly generated for this
file and used nowhere else); none is a real credential. Values are kept
structurally realistic: card numbers pass Luhn, IBANs pass mod-97, seed
phrases are valid BIP-39 (checksum included), JWTs decode, BitLocker groups
are multiples of 11, the WIF key and bech32 address carry valid checksums.

Contents
  SECRETS    : 60 (category, text) tuples -- each text holds a secret that
               must be refused. 30 Vietnamese (with diacritics, without, or
               mixed with English), 30 English.
  LOOKALIKES : 60 (category, text) tuples -- similar-looking texts holding no
               secret; they must be stored. 30 Vietnamese, 30 English.
               18 deliberately hard ones have categories starting "hard_".

Documented example/test values (AWS "EXAMPLE" keys, the Stripe 4242 test
card) are counted as lookalikes on purpose: they are public. Public keys,
fingerprints, wallet *addresses*, hashes, ids, masked numbers, personal ID
and tax numbers are lookalikes too. Bank account numbers given with
transfer phrasing, and IBANs, are counted as secrets.
"""

SECRETS = [
    # ---------------- passwords (incl. sentences without the word) ----------
    ("password", "Nhớ giúp anh: mật khẩu email công ty là Hoa.Sen@2026, đừng nói với ai nhé."),
    ("password", "tài khoản Shopee mình đặt là Bichngoc!93, lỡ quên thì nhắc mình"),
    ("password", "tk FPT Play: login là sđt 0912338471 còn pass là ngày sinh 23041990"),
    ("password", "mk zalo cua anh la tuananh_1988 nhe, dung doi"),
    ("password", "My Netflix login is linh.pham91@gmail.com and it's Sunflower#2207"),
    ("password", "wifi nhà mới: TP-Link_A3F2 / mk: camonem2024"),
    ("password", "Router admin page 192.168.1.1 -> user admin, pw VNPT@h0me!77"),
    ("password", "For the shared Dropbox, use the team email and the phrase purple-otter-canyon-42 to get in."),
    # ---------------- PINs and door / alarm codes ----------------------------
    ("pin", "The code for the garage is 4817, then press the # key."),
    ("pin", "[voice] ừ ghi lại giúp anh, thẻ ATM của mẹ mã là 7 3 9 1 nhé, đừng quên"),
    ("pin", "okay so remember the alarm code is six two nine zero four one, got it"),
    ("pin", "Mã mở cửa chung cư block B: *2468# (bấm xong đợi đèn xanh)"),
    # ---------------- one-time codes -----------------------------------------
    ("otp", "[VCB] Ma OTP cua Quy khach la 482913. Hieu luc trong 3 phut. Tuyet doi KHONG cung cap OTP cho bat ky ai."),
    ("otp", "G-738104 is your Google verification code."),
    ("otp", "anh ơi mã xác nhận Shopee của em là 093415, anh nhập giùm em với"),
    # ---------------- API keys / tokens of many services ---------------------
    (
        "api_key",
        "OpenAI key cho project chatbot: 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",
    ),
    (
        "api_key",
        "file .env của dự án:\nANTHROPIC_API_KEY=sk-ant-api03-TEIXdHJwqRIsBIrlyDrWNHa9ZPJ055h3ZY7Isg_qOwVxQ3pZ9wpzcVRMk245Brxqq-KyzsOnFg4xarI6F3H_r-up8cUb1AA\nMODEL=claude-sonnet",
    ),
    ("api_key", "Slack bot token cho con bot deploy: xoxb-325436198526-7108139879165-NL1g4sOXVipOyPZ7coJL2t69"),
    (
        "api_key",
        "~/.aws/credentials\n[default]\naws_access_key_id = AKIARQDEARPL42ZXBZIK\naws_secret_access_key = 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\nregion = ap-southeast-1",
    ),
    (
        "api_key",
        "Stripe live secret for the shop backend: 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",
    ),
    ("api_key", "Token bot Telegram báo giá vàng: 5198545903:AAynpUiJquH7cndSLLcei5rYEKkYgy4nx2A"),
    ("api_key", "token huggingface de tai model private: hf_xthHeXpD1oYWchmt98tBqsVi3CXFlnb5Sb"),
    (
        "api_key",
        "Vault root token after unseal (self-hosted vault.lab.local): hvs.CAESI-Ye6UamnabfIoGCo16wEn4XR2ayVcLCrR9QCrfLmncsIGv44Lgs_grN8GoVxR7cI6M38cVn8hocuiTQfnguix8",
    ),
    ("api_key", "Gitea nội bộ (git.congty.local) – access token của mình: 7eeb8a1ec9332a30a983694d1b428f3e50e86c2c"),
    (
        "api_key",
        "Home Assistant long-lived access token for the Node-RED flow: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJjMjE0ODdjZWI1MjdkMjM2ZmVjNmJlYWY3MzY3YWUyNyIsImlhdCI6MTc5NjAwMDAwMCwiZXhwIjoyMTExMzYwMDAwfQ.FppMaAjzOKEgt1bIkeaO83LNb7BmdFhmlEr1ecQutRM",
    ),
    ("api_key", "Twilio: Account SID AC5afdd27b682de9bbfcea297ea6309b3c, Auth Token f3733df505189cf6077c9e43067eba2d"),
    # ---------------- tokens inside commands / config / logs -----------------
    ("token_in_command", "~/.npmrc\n//registry.npmjs.org/:_authToken=npm_vSijnYPIxzwUp2m2ea3AEQzH8M2PossJjlTm"),
    ("token_in_command", "curl -u admin:F%MTNp&9E1HqNbYQ https://nas.nhaminh.vn:5001/api/backup/start"),
    (
        "token_in_command",
        "kubectl create secret generic db-creds -n prod --from-literal=username=app --from-literal=password=xSQSDyUA6yFs9J3gdM85",
    ),
    (
        "token_in_command",
        "2026-11-28 10:42:13 DEBUG httpx request headers={'Authorization': 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1XzgzOTIwIiwibmFtZSI6IlRyYW4gTWluaCIsInJvbGUiOiJhZG1pbiIsImlhdCI6MTc5NTAwMDAwMCwiZXhwIjoxNzk1MDg2NDAwfQ.XWSFeHRKVtmOomCLAdXt8wBhqiGrPlZnZoLoyBw4IUk'}",
    ),
    ("token_in_command", "header gọi API phần mềm kế toán: Authorization: Basic a2V0b2FuOlRoYW5nMTJAMjAyNg=="),
    (
        "token_in_command",
        '.gitlab-ci.yml\nvariables:\n  GITLAB_TOKEN: "glpat-Sp6lpBOpnbxR5KvW3-_q"\n  DEPLOY_ENV: staging',
    ),
    (
        "token_in_command",
        "chạy lại container: docker run -d --name dns-sync -e DIGITALOCEAN_TOKEN=dop_v1_44ed7ea44caf0991af673f821f9f9abce21e7260328c5fc273853c40f834c155 ghcr.io/nhaminh/dns-sync:latest",
    ),
    (
        "token_in_command",
        "docker run -p 9000:9000 -e MINIO_ROOT_USER=NVPDUC7JZQFPLYBZ5DCE -e MINIO_ROOT_PASSWORD=uiYqHazaKa3wGbHCntlutNo740ZE7whhUH4g1XAw minio/minio server /data",
    ),
    # ---------------- URLs carrying secrets ----------------------------------
    (
        "url_secret",
        "git remote set-url origin https://ghp_fseIFtcCXS8I7ICIHEcBmBppXzRx1p5GZu0i@github.com/nhaminh/family-photos.git",
    ),
    (
        "url_secret",
        "webhook báo lỗi vào kênh #alerts: https://hooks.slack.com/services/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",
    ),
    # ---------------- connection strings -------------------------------------
    (
        "connection_string",
        "DATABASE_URL=postgresql://shop_app:Lotus%23Db2026@10.0.12.5:5432/shop_prod  (đừng đưa lên git)",
    ),
    (
        "connection_string",
        "mongodb+srv://analytics:iOFhY49Y77mzShiz@cluster0.x7k2p.mongodb.net/events?retryWrites=true&w=majority",
    ),
    (
        "connection_string",
        "Server=sql01.noibo.local;Database=NhanSu;User Id=sa;Password=Qu4nLy!NhanSu;TrustServerCertificate=True",
    ),
    # ---------------- private keys and key material --------------------------
    (
        "private_key",
        "key để vào NAS:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACAjxR3GO+5HDHCsjkzhZRM6mq82mYF+G6LBWv6Il/s/lAAAAJisCEEirAhB\nIgAAAAtzc2gtZWQyNTUxOQAAACAjxR3GO+5HDHCsjkzhZRM6mq82mYF+G6LBWv6Il/s/lA\nAAAEA/NbS+TqNu/xH5YV88Y/IuqGK6sX0r/AqJcO0BVDUR8iPFHcY77kcMcKyOTOFlEzqa\nrzaZgX4bosFa/oiX+z+UAAAAD2RlcGxveUBuYXMtaG9tZQECAwQFBg==\n-----END OPENSSH PRIVATE KEY-----",
    ),
    (
        "private_key",
        "[Interface]\nPrivateKey = Lc/zer4QiWTij+5RTjD8GP0sH43VlQgB+XiW4UOlRNM=\nAddress = 10.8.0.2/24\nDNS = 1.1.1.1",
    ),
    (
        "crypto_private_key",
        "private key ví MetaMask cũ: 0x46bc041aadf0d366c48c6a5d6960c34793cd74bf00d1efe6b9db1748b3a3f7c6",
    ),
    ("crypto_private_key", "Paper wallet from 2017, WIF: KwMDRvczsNfRbsG4uNgCS9U8Breqbzq9M2BBXV7B1Eqy8S7TSyHF"),
    # ---------------- sessions / cookies -------------------------------------
    (
        "jwt_session",
        "cookie đăng nhập trang admin: sessionid=03c6krszvwukleuwxil12xsh5d74iu24; csrftoken=OwxnG7DaRWjRVFj5opeU0KtFJQuXOLQG",
    ),
    # ---------------- payment cards ------------------------------------------
    ("payment_card", "số thẻ visa của em 4232 3321 1325 0723, hết hạn 09/28, cvv 418"),
    ("payment_card", "Amex for business travel: 3760 695247 12867, exp 03/29"),
    ("payment_card", "the ATM noi dia cua bo: 9704562382466380, ten in tren the LE VAN THANH"),
    ("payment_card", "card 2221991858704421 12/27 cvc 305, use it for the AWS bill"),
    ("payment_card", "[OCR] VISA\n4737 3412 9317 0361\nVALID THRU 11/28\nNGUYEN VAN AN"),
    # ---------------- bank accounts / IBAN -----------------------------------
    ("bank_account", "Chuyển tiền cọc vào STK 0071001234567 Vietcombank, chủ TK NGUYEN THI HOA nhé anh"),
    ("bank_account", "ck cho em qua techcombank 19036625184017 ten TRAN QUOC BAO, noi dung: tien hoc thang 12"),
    (
        "bank_account",
        "Please wire the deposit to my Chase checking, account 483920174, routing 021000021, name Daniel Reyes.",
    ),
    (
        "iban",
        "Hi Minh, for the flat deposit please transfer to IBAN DE90 3704 0044 0532 0194 81 (Deutsche Bank, Jonas Weber). Thanks!",
    ),
    (
        "iban",
        "Bạn Pháp nhờ chuyển học phí vào IBAN FR39 2004 1010 0505 0001 M026 06, tên Camille Durand, nhớ ghi nội dung 'frais S2'",
    ),
    # ---------------- seed phrases -------------------------------------------
    (
        "seed_phrase",
        "12 từ khôi phục ví Trust Wallet: city bridge cake common trade labor swap document twist nothing twin later",
    ),
    (
        "seed_phrase",
        "Ledger backup, 24 words in order: produce stable swarm nominee drastic box sad scatter tornado cabbage auction slot liberty boost language focus horn jungle letter media shrug record zero promote",
    ),
    # ---------------- 2FA setup keys and recovery codes ----------------------
    ("2fa_setup", "khóa thiết lập Google Authenticator cho tk Binance: xti4 hzug qd75 wmth"),
    (
        "2fa_setup",
        "QR decoded from the Proton 2FA screen: otpauth://totp/Proton:an.nguyen@proton.me?secret=QYNRCWI4OBZKGXTSXR4LMF3YJSZAZ5YH&issuer=Proton",
    ),
    (
        "recovery_codes",
        "GitHub recovery codes (keep safe):\n61d87-44b9b\nec997-5f26a\nd53cd-b0b6f\ne7191-db9b5\nf813a-3b216\n98e19-bca4f\n69958-2c71b\nacb0c-d1dda",
    ),
    ("recovery_codes", "mã dự phòng Google của tk công việc: 5271 8081, 6526 2730, 1935 5095, 7283 9063, 4837 1277"),
]

LOOKALIKES = [
    # ---------------- security talk without values ---------------------------
    ("security_talk", "Nhắc mình cuối tháng đổi mật khẩu ngân hàng, chuyển hết sang Bitwarden cho dễ quản lý."),
    ("security_talk", "Remind me to rotate the Stripe API keys after the contractor leaves on Friday."),
    (
        "security_talk",
        "Đã bật xác thực 2 lớp cho Facebook bằng app Google Authenticator, mã dự phòng in ra giấy cất trong két ở nhà.",
    ),
    ("security_talk", "Mom keeps her PIN written on a sticky note in her wallet, talk to her about that this weekend."),
    ("security_talk", "nho doi mat khau wifi vao cuoi tuan, pass cu ca xom biet het roi"),
    ("security_talk", "The SSH key on the old laptop was revoked yesterday; the new one lives only on the YubiKey."),
    # ---------------- placeholders -------------------------------------------
    ("placeholder", "Authorization: Bearer <YOUR_ACCESS_TOKEN>  (lấy token ở trang Settings > API)"),
    ("placeholder", "README step 3: copy .env.example to .env and set OPENAI_API_KEY=your-key-here"),
    # ---------------- documented example / test values -----------------------
    (
        "example_value",
        "Ví dụ trong tài liệu AWS: aws_access_key_id = AKIAIOSFODNN7EXAMPLE, aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    # ---------------- public keys and fingerprints ---------------------------
    (
        "public_key",
        "thêm public key này vào authorized_keys của server: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHljSm03JAUDPqOH+Sl7Z4BlEXF6WQK/RDOPaX7VcsaI minh@thinkpad",
    ),
    (
        "public_key",
        "Host key fingerprint for build01 is SHA256:SumKJMXGDZEXUvB+Z0TKp5duHTZQNZUbr8oibkTCSrA (ED25519), verify before accepting.",
    ),
    ("public_key", "My PGP key fingerprint: 8AA6 2BA1 2E5D AEEA 9213  C38F 247C 4557 6E85 D682"),
    # ---------------- hashes and ids -----------------------------------------
    ("hash_id", "Revert commit 0782a1e23f83144ba4006b67634413ac2552f47f, nó làm hỏng trang đăng nhập"),
    (
        "hash_id",
        "Pinned the image to nginx@sha256:06c4dbfd608736a82f3dad01d194e6f3391fa920a5db423c24b9b7c0fc6420d4 so prod stops drifting.",
    ),
    ("hash_id", "Lỗi 500 khi thanh toán, request id 85430dfa-53da-4670-af9c-6444e489b074, gửi cho team backend xem"),
    ("order_id", "Mã đơn hàng Shopee 241201KX7Q2MPA, dự kiến giao trước 05/12"),
    ("booking_id", "Vietjet ma dat cho K7XQ2M, bay SGN-HAN 20/12 luc 06:15, hanh ly 20kg"),
    ("tracking_id", "USPS tracking for the camera lens: 9400 1118 9922 3456 7890 12"),
    # ---------------- phone numbers / personal & tax ids ---------------------
    ("phone", "Số bác sĩ Hùng phòng khám nhi: 0903 456 789, gọi sau 5h chiều."),
    ("phone", "Plumber Mike: +1 (415) 555-0142, cash only."),
    ("personal_id", "Số CCCD của mẹ: 001168012345, cấp ngày 10/05/2021, dùng khi làm thủ tục bảo hiểm"),
    ("tax_id", "MST công ty để xuất hóa đơn: 0312456789 – Công ty TNHH Minh Phát, 12 Nguyễn Huệ, Q1"),
    ("personal_id", "Passport renewal appointment on 14 Jan; bring the old passport and two photos."),
    # ---------------- money / transfer notes without account numbers ---------
    ("money_note", "Đã chuyển 2.500.000đ tiền nhà tháng 11 cho chị chủ nhà qua MoMo, nội dung 'phong 302 T11'"),
    ("money_note", "Paid Anna back $45 for the concert tickets via Venmo."),
    ("money_note", "Em quét mã QR trên hóa đơn để chuyển khoản nhé, không cần gõ số tài khoản đâu."),
    # ---------------- masked numbers -----------------------------------------
    ("masked", "Card ending in 4421 was charged $12.99 for Spotify."),
    # ---------------- PIN / password policies --------------------------------
    ("policy", "Quy định công ty: mật khẩu tối thiểu 12 ký tự, có chữ hoa, số và ký tự đặc biệt, đổi mỗi 90 ngày."),
    ("policy", "New rule from IT: PINs must be 6 digits and are reset every quarter."),
    # ---------------- Wi-Fi without password ---------------------------------
    ("wifi_no_password", "Wi-Fi ở quán cà phê tên là 'Highlands_Free', không có mật khẩu, chỉ cần đăng nhập bằng sđt."),
    ("wifi_no_password", "Guest network SSID is Nguyen-Home-5G; the password is printed on the back of the router."),
    # ---------------- dates / versions / coordinates -------------------------
    ("date_version_coord", "Upgraded Gitea from 1.21.4 to 1.22.0, build 20261130.4, rollback tag v1.21.4-hotfix2."),
    ("date_version_coord", "Toạ độ nhà nội: 10.776889, 106.700806 (gần chợ Bến Thành)"),
    # ---------------- product codes ------------------------------------------
    ("product_code", "Máy lạnh Daikin model FTKB35WAVMV, serial E012345678, bảo hành đến 2028"),
    ("product_code", "Replacement filter part no. HF-2C-0931, SKU 884392017735, order two."),
    ("product_code", "ma giam gia Grab tuan nay: GRABFOOD50, giam 50k cho don tu 150k (quang cao tren app)"),
    ("misc_id", "My employee ID is E-204817 and my desk is 4B-112."),
    ("misc_id", "Zoom meeting ID for the Monday stand-up: 845 2291 7730 (the link is in the calendar)."),
    ("misc_id", "SWIFT code của Vietcombank là BFTVVNVX, dùng khi nhận tiền từ nước ngoài"),
    ("misc_id", "Flight UA 857 departs 11:05 from gate G92; seat 34K."),
    ("misc_id", "Our Wi-Fi router's MAC address is 3C:84:6A:1F:92:D0, add it to the allow-list."),
    ("misc_id", "Library card barcode 21132004587713, due date 12/19."),
    # ---------------- deliberately hard ones ---------------------------------
    (
        "hard_placeholder",
        "Template kết nối: postgres://USER:PASSWORD@HOST:5432/DBNAME – thay bằng thông tin thật lấy từ Vault",
    ),
    (
        "hard_placeholder",
        "docker-compose.yml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}",
    ),
    ("hard_placeholder", "- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}"),
    (
        "hard_test_card",
        "Thẻ test của Stripe: 4242 4242 4242 4242, hạn bất kỳ trong tương lai, CVC bất kỳ – chỉ dùng ở chế độ test",
    ),
    (
        "hard_jwt_header",
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 chỉ là header base64 của {"alg":"HS256","typ":"JWT"}, không có payload hay chữ ký',
    ),
    (
        "hard_public_key",
        "[Peer]\nPublicKey = AiuyHs3npH9iH6epf9FnbGZxV5ato6CMW62KmoENnM4=\nEndpoint = vpn.nhaminh.vn:51820\nAllowedIPs = 10.8.0.0/24",
    ),
    (
        "hard_public_key",
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEsPsP9bnS7Lu10j/CxoTq51OOnK6C\nT9XD58R6ihariwCdO1rOwYOKqVxiJAdrd7i/JS7YhUCArUMApg4nnANmiA==\n-----END PUBLIC KEY-----",
    ),
    (
        "hard_wallet_address",
        "Ví nhận USDT (BEP20) của shop: 0xc106b45dfb81df82a1804225f969f1a6e7c618c8 – khách chuyển xong gửi ảnh chụp",
    ),
    ("hard_wallet_address", "Tips welcome: bc1qak4f403nn5s6fhsmnf9hd2vsd692a0wfdzxpf0"),
    (
        "hard_hash",
        "checksum SHA-256 cua file ubuntu-24.04.iso: 72726b12d922e42b6c2cf1ec189a3ac3cec24773db77c58e845a72d520645a9c",
    ),
    ("hard_trace_id", "traceparent: 00-6722fcc34450ff408fe51329d2cdc1d9-b7ad6b7169203331-01"),
    ("hard_masked", "TK 1903****4017 -150,000VND luc 14:02 01/12/2026. SD: 8,250,000VND. ND: thanh toan tien dien"),
    ("hard_masked", "2026-11-30 09:12:01 INFO login attempt user=hoang.le password=******** result=FAILED"),
    ("hard_otp_talk", "mã OTP sẽ gửi về số đuôi 789, ai gọi hỏi thì đừng đọc cho họ nhé"),
    ("hard_luhn_imei", "IMEI điện thoại của bố (ghi trên hộp): 353918104587387, dùng khi báo mất máy"),
    ("hard_word_list", "Vocab for this week: abandon, ability, absorb, abstract, absurd, abuse, access, accident"),
    ("hard_date", "Sinh nhật bé Na 12/08/2019, nhớ đặt bánh trước 2 ngày"),
    (
        "hard_bank_public",
        "Routing number for Chase in New York is 021000021; still waiting for Linda to send her account number before I wire anything.",
    ),
]
