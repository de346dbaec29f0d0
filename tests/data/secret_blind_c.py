"""Blind evaluation set C for the secret filter.

Written blind on 2026-12-01: the author did not look at the filter's code, its
rules, or any other evaluation set. Every value below was invented for this file
(random generation where structure matters). None is a real credential.

Structure checks that hold for the invented values:
  * card numbers pass the Luhn check (words / spaced forms included);
  * the IBAN passes the mod-97 check;
  * seed phrases are valid BIP-39 English mnemonics (checksum OK);
  * TOTP secrets are valid base32; Kubernetes ``data`` values are valid base64;
  * JWTs are well-formed HS256 header.payload.signature tokens.

SECRETS    : 70 (category, text) tuples, each holding a secret that must be refused.
LOOKALIKES : 70 (category, text) tuples with similar vocabulary or shapes but no
             secret, all safe to store. 29 are deliberately hard (marked
             "# hard" in the source): published example keys and test cards,
             public keys, wallet addresses, placeholders in real config syntax,
             ciphertext, hashes the same length as private keys, BIP-39-like
             word lists, etc.

The numbered word lists in LOOKALIKES are NOT valid BIP-39 mnemonics.

Roughly half of the texts in each list are Vietnamese (SECRETS 36 VI / 34 EN,
LOOKALIKES 37 VI / 33 EN): with diacritics, without diacritics, or mixed with
English; the rest English.
"""

SECRETS = [
    # ---- payment cards -------------------------------------------------
    (
        "card",
        "Note to self: thẻ Visa công ty 4232 3321 1325 0723, hết hạn 09/28, CVV 417 — dùng để gia hạn AWS hàng tháng.",
    ),
    (
        "card",
        "Voice memo transcript: card number is five two nine one, four two eight nine, eight five nine eight, "
        "four six seven three, expiry oh three twenty-nine, security code six zero two.",
    ),
    ("card", "Amex cho chuyến công tác Singapore:\n3799 918587 04425\nexp 11/27\nCID (4 số mặt trước) 8841"),
    (
        "card",
        "Ghi âm: số thẻ ATM của bà là chín bảy không bốn, sáu năm sáu hai, ba tám hai bốn, sáu sáu ba không, "
        "mã PIN là một chín tám bảy.",
    ),
    (
        "card",
        "Support chat — Customer: hi, my payment keeps failing, card is 3548606952471289 exp 07/26 cvc 390, "
        "can you try charging it from your side?",
    ),
    # ---- banking ---------------------------------------------------------
    (
        "bank_login",
        "Bank transfer read over the phone by Dad: from IBAN DE22 5001 0517 9416 0486 92, "
        "his online banking login is hkoch1958 and the PIN is 58213 — he wants me to pay the roof guy.",
    ),
    (
        "otp",
        "Fwd SMS tu Vietcombank: Ma OTP giao dich chuyen tien 15,000,000 VND toi TK 0071000xxxxx la 482913. "
        "Tuyet doi KHONG cung cap ma nay cho bat ky ai.",
    ),
    (
        "bank_login",
        "Tài khoản internet banking Techcombank của mẹ: tên đăng nhập nguyenthilan1962, mật khẩu Lan@1962tcb, mình giữ hộ.",
    ),
    ("pin", "Ví MoMo của bố mã PIN 6 số là 190455, bố hay quên nên nhờ mình nhớ giúp."),
    (
        "password_voice",
        "Ghi âm giọng nói: mật khẩu két sắt ở văn phòng là bốn bốn ba ba chín một, đừng nói cho ai nhé.",
    ),
    ("pin", "Alarm code for Mum's house is 2-6-0-9, you have 30 seconds to disarm after opening the front door."),
    # ---- wifi ------------------------------------------------------------
    ("wifi_qr", "QR dán ở tủ lạnh decode ra: WIFI:T:WPA;S:NhaTro_Tang3;P:ChuNha@0912;H:false;;"),
    ("wifi_qr", "Scanned the guest QR at the Airbnb in Lisbon: WIFI:T:WPA;S:Casa-Lisboa-5G;P:azulejo#2719;;"),
    # ---- crypto ----------------------------------------------------------
    (
        "seed_phrase",
        "OCR từ ảnh chụp màn hình ví Trust Wallet:\n1 search   2 snap   3 zero\n4 lazy   5 comic   6 decorate\n"
        "7 pole   8 uncle   9 diary\n10 people   11 kiss   12 lounge",
    ),
    (
        "seed_phrase",
        "Ledger backup (don't lose!!): hedgehog dentist negative main before liquid machine sphere tilt suggest risk mind",
    ),
    (
        "seed_phrase",
        "Cụm từ khôi phục ví MetaMask 24 từ của anh Khoa: thunder stone work derive edge easy route page dry canyon "
        "party era crush cake hip trust board oppose pioneer lock rabbit match brief pet",
    ),
    (
        "crypto_private_key",
        "private key ví ETH phụ để claim airdrop: 0xd231a5c0061795f0ff76dbbbd50304af7f6eff1f64677946ea717bb668ba7b4e",
    ),
    (
        "crypto_private_key",
        "Paper wallet transcription — privkey (WIF, compressed): KzPdewD5hwk9iDkXgeKvRkSjdDDkcHLmJoX8MrDmKatMwGKkWHrb",
    ),
    # ---- 2FA -------------------------------------------------------------
    (
        "totp_secret",
        "backup 2FA GitLab nếu mất điện thoại: otpauth://totp/GitLab:minh.tran%40fpt.vn?"
        "secret=D3GWQDHWZMXXMIM7F7YF45CGAYANZXQB&issuer=GitLab&digits=6&period=30",
    ),
    (
        "totp_secret",
        "Setup key for Binance 2FA (enter manually if the QR won't scan): BYKG UCXP UHTL T2ZC M255 Q3AA HATW 3MKF",
    ),
    ("totp_secret", "Mã bí mật Google Authenticator cho tài khoản quản trị fanpage: D5BW 4WIH 3OHP 75IF"),
    (
        "recovery_codes",
        "GitHub recovery codes (saved from the download page):\n70bc3-7ba74\nb7015-de41a\ne0844-eecce\n"
        "04c0c-88a48\nbbc12-a72e7\n93930-e7e0a",
    ),
    (
        "recovery_codes",
        "Mã dự phòng đăng nhập Google của chị Hằng (mỗi mã dùng 1 lần): 4817 2290, 6603 1947, 3358 8021, 9142 6675, 0286 4419",
    ),
    # ---- keys ------------------------------------------------------------
    (
        "ssh_private_key",
        "anh ơi key server staging đây, em copy bị thiếu đoạn cuối:\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACAfJfHygq/dY5/16gJuqVxVOJTo6Zhe9rKFBxIDJ3ahRwAAAIhBvkZplJG7FQnPwsrGxZ90O5Vv5PLeYTpcI7LrjqYXt6GuzKTzJkKHFiaJOl6knO5rK0as9HAFfKPmvLo=",
    ),
    (
        "ssh_private_key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA62wbfo1jdZdu+l4QFkXPlL9OEuyvdwb3UmfKqLLrd7ojofvb\n"
        "Lzup13tXQizdYlGMF9cu0TPftcKGxGiCcUdhQcQB1aSWTp68XX+a5zqI1C2Jaajb\n"
        "DATy2cWjarkUxBm/dgqiEYXXArc0n4OBu6hlUGbHJr1sz8xMWl9vywNQ+T1QtKXT\n[... rest of deploy_rsa]",
    ),
    (
        "firebase_service_key",
        '{"type": "service_account", "project_id": "quanlykho-7f3a2", '
        '"private_key_id": "5fb7824a01f1b58509700a6c8cac6ff8fc806f5e", '
        '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCbAZifnV2/sHeM\\n'
        "CAAEv34EXvPmQDI8dIfjcnehXK2quI0Tvnz9u0s29BGKnhuOC7Bet2rqZq23nUWJ\\n...",
    ),
    (
        "supabase_service_key",
        "SUPABASE_URL=https://qvxkzrmtpwhdlnbcfeya.supabase.co\nSUPABASE_SERVICE_ROLE_KEY="
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6InF2eGt6cm10cHdoZGxuYmNmZXlhIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImlhdCI6MTczMzkwMDAwMCwiZXhwIjoyMDQ5NDc2MDAwfQ.nWG101ODhNMD0WHPlxJQ-AxrR3sK2jqD5leRf2g3QEY",
    ),
    ("fernet_key", "Fernet key để mã hóa cột số điện thoại khách hàng: DAzZAe91WMn9rAiM-OccZ9S9EaqQNww8_nvuEKYH7bc="),
    (
        "django_secret_key",
        "settings/prod.py line we accidentally committed: SECRET_KEY = 'bls!9p&6wm9iaeb0%&fy7hf2@$jc826(s2%*d7$xwkw0n$01r_'",
    ),
    # ---- payment provider / SaaS API secrets ----------------------------
    (
        "stripe_secret",
        "ENV STRIPE_SECRET_KEY=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",
    ),
    (
        "stripe_secret",
        "fix(checkout): hardcode restricted key tạm thời 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, sẽ chuyển sang env sau",
    ),
    ("stripe_secret", "Stripe webhook signing secret for the prod endpoint: whsec_pgf1pGbL8YigwCvRgzt8cGCIzjGq9zSv"),
    (
        "paypal_secret",
        'terraform.tfvars\npaypal_client_id     = "AHGxP959ItOdNKDmaTajIHPGvbgtAD-R2eZA_sNToZafAtdYdvlHBdjzKVdhRBIfxdfYIis3ANoUMfbR"\n'
        'paypal_client_secret = "ErP_HjXoZrMhpyLudlS5LN-TyL98cwnwipu5DMrxQUDeK97klfagxdof9BekkJYN2hJQgmV6WbpSPsYy"',
    ),
    (
        "momo_secret",
        "Config MoMo production: partnerCode=MOMOHTX20241105, accessKey=0mjz8gcHSYq6ePlq, secretKey=gTjI4TotJx7YWFOMIBwxQar0F9yNxn1f",
    ),
    (
        "vnpay_secret",
        "VNPay gửi mail cấu hình merchant: vnp_TmnCode=HCQSXHTA, vnp_HashSecret=M9I3CJB4YUBSB7EJZWIBTQ44OM5DLG0L — lưu lại để điền vào .env",
    ),
    (
        "zalopay_secret",
        "ZaloPay app_id 28411, key1 = PBLWz8bgBLcbCSh8d7VwPIGBqC4PyT9L, key2 = eqoc71zr12NMcTOs2ehhw4p9K5oGeDed (key2 dung de verify callback)",
    ),
    (
        "telegram_bot_token",
        "Bot Telegram báo đơn hàng: token 7462345493:AA6iQBlME_DhHKTEwkVoVFddeihNXMh3g7M, chat_id -1002134567890",
    ),
    (
        "slack_token",
        "chore: them bot thong bao deploy\n\nSLACK_BOT_TOKEN=xoxb-333873080536-8931471884506-TmcmdBYWCQ4hoHro2mPVMOh4",
    ),
    (
        "sendgrid_key",
        "Support chat: here's our key so you can check why the receipts bounce: 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",
    ),
    (
        "twilio_token",
        "TWILIO_ACCOUNT_SID=ACef43f4b45cbb220cbfec147d13d10f76\nTWILIO_AUTH_TOKEN=0e4435ceda4c0874355912a62280376e",
    ),
    (
        "google_api_key",
        "Key Google Maps của dự án giao hàng, chưa giới hạn domain nên đừng public: AIzaSysWFZqmVGPwZeGLVo39V8qg7kWn66oKnPl",
    ),
    (
        "openai_key",
        "key OpenAI của team, cuối tháng nhớ rotate: OPENAI_API_KEY=sk-proj-fB04p8v_WkGr0qzn7Us3X7Ry-9EsP2A6UbHIPEsa98Ktv2DvT3BlbkFJvXoPxAkuf94uw15mr5ukGawaUQLpvuUYvifPEsPghWIaYSl9",
    ),
    (
        "anthropic_key",
        "note: personal Anthropic key for the side project — sk-ant-api03-5GSfR60YkKIJDWIH51eVH8j3Ux2GrQXE6HYQqDSER-8hkELTO46ssJW9J3I6B_DGvUJmf-kCllz6xLpo_bp8vtcmpxHOwAA",
    ),
    ("huggingface_token", "token huggingface-cli login của mình (quyền write): hf_LHQhFr1g4dHItpf5wBQRSCIgOGdnIOM8wR"),
    (
        "npm_token",
        ".npmrc on the build box:\n//registry.npmjs.org/:_authToken=npm_J3nkeJkGVAQXt6fp8sfMPVDPG04Y6J8bKXR1",
    ),
    (
        "cloudflare_token",
        'variable "cloudflare_api_token" {\n  type    = string\n  default = "EQG9Cj-E9tkQudtKPDiGvMrO80BaRZcEHrFN4iWV"\n}',
    ),
    (
        "aws_key",
        "~/.aws/credentials\n[prod]\naws_access_key_id = AKIAA4LT5NHTD6CASU7C\naws_secret_access_key = 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",
    ),
    # ---- tokens / sessions ---------------------------------------------
    (
        "session_cookie",
        "Copied as cURL from devtools so you can reproduce the admin bug: curl 'https://admin.lotusceramics.co/orders/' "
        "-H 'Cookie: sessionid=yj7ov2z42vswi82umb0kt1cgcr6v3eit; csrftoken=FXjHhJqbuvG10cyi2KNrK9tUlx0ffBP3'",
    ),
    (
        "session_cookie",
        "cookie connect.sid của tài khoản admin shop, dán vào EditThisCookie là vào được luôn: "
        "s%3Aqfu8ZC9zTLowZ_ROMf4lYI_HiYB2D03G.fvWFjlkRFmCw8MUzzHe5OWHP112RpH85hIVfP%2BBzkZA",
    ),
    (
        "jwt",
        "Link đăng nhập của em bị lỗi, anh xem giúp: https://app.tieuthuong.vn/auth/callback#access_token="
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1XzgxNzM0IiwiZW1haWwiOiJ0aGFvLm5nQGV4YW1wbGUudm4iLCJyb2xlIjoiYWRtaW4iLCJpYXQiOjE3OTUwMDAwMDAsImV4cCI6MTc5NTA4NjQwMH0.60kCXFy56DQbpMNraDx-mtW5ZLBgmM6ZkZATtI6MmZs"
        "&token_type=bearer&expires_in=3600",
    ),
    (
        "jwt",
        'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0NDE3IiwibmFtZSI6IlBoYW0gUXVvYyBCYW8iLCJzY29wZSI6InVzZXJzOnJlYWQgdXNlcnM6d3JpdGUiLCJpYXQiOjE3OTYxMDAwMDAsImV4cCI6MTc5NjE4NjQwMH0.cW97RHnO4hS5lEYsFE7sjE32Jk3GQ69x4E5DVoLd27w" '
        "https://api.noibo.vn/v1/users",
    ),
    # ---- config files ----------------------------------------------------
    (
        "git_remote_token",
        "git remote -v\norigin  https://tuan-dev:ghp_MwMmIGVieIMsMhpvHCVSYdFqNVk9Pywp9Zy8@github.com/tuan-dev/erp-noi-bo.git (fetch)",
    ),
    ("netrc", "~/.netrc trên máy CI:\nmachine gitlab.congty.vn login ci-deploy password glpat-19M-JUmQ9mOXSE4dFqge"),
    ("netrc", "machine api.heroku.com\n  login linh.pham@gmail.com\n  password fb0dff7e-b79d-4c32-a7f9-c38c734f3cea"),
    ("pgpass", "dòng trong ~/.pgpass của anh Long: db-prod.internal:5432:ketoan:ketoan_rw:Tr4ng#An9-ketoan"),
    (
        "smtp_password",
        'EMAIL_HOST = "smtp.gmail.com"\nEMAIL_HOST_USER = "shop.hoami@gmail.com"\n'
        'EMAIL_HOST_PASSWORD = "bwbj tfty jpmd kkfs"  # app password gmail cua shop',
    ),
    (
        "k8s_secret",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: kho-db\ntype: Opaque\ndata:\n  DB_USER: YXBwX2tobw==\n"
        "  DB_PASSWORD: UXU0bkx5IUtobzIwMjQjcHJvZA==",
    ),
    (
        "k8s_secret",
        "secret này của namespace prod, anh apply giúp em:\ndata:\n  REDIS_URL: cmVkaXM6Ly86UjNkaXMhQ2FjaGUjODhAcmVkaXMtbWFzdGVyLnByb2Q6NjM3OS8w\n"
        "  MAIL_PASSWORD: U203cCNNYWlsLTIwMjYha3Y=",
    ),
    (
        "ansible_plaintext",
        "ansible-vault view group_vars/prod/vault.yml\nvault_mysql_root_password: 'n9X#pL2q!Rw7'\nvault_become_pass: 'Sud0!Deploy#2026'",
    ),
    ("connection_string", "docker-compose.yml: DATABASE_URL=mysql://root:Vn!2026sql@103.97.125.18:3306/banhang"),
    (
        "connection_string",
        "Chuỗi kết nối Mongo của shop: mongodb+srv://thanhdat:Dat%40Mongo2026@cluster0.x8k2p.mongodb.net/shop?retryWrites=true",
    ),
    # ---- plain passwords -------------------------------------------------
    (
        "browser_export",
        "file Chrome Passwords.csv xuất ra có dòng:\nonline.mbbank.com.vn,https://online.mbbank.com.vn/pl/login,0912345678,Mb@Thuy1990!,",
    ),
    (
        "browser_export",
        '"https://accounts.shopify.com/login","owner@lotusceramics.co","Glaze&Kiln_2291","","https://accounts.shopify.com",'
        '"{4f1c2e7a-93b0-4d51-8a6e-2c9f0b7d3e18}","1733011200000","1764547200000","1733011200000"',
    ),
    ("password", "[Ảnh chụp màn hình] Quản lý kho — Tên đăng nhập: admin_kho | Mật khẩu: Kh0@2026!xyz | [Đăng nhập]"),
    ("password", "Router admin page 192.168.1.1 — user admin, new pass I set tonight: Br1ghtOtter!77"),
    ("password", "mk email cong ty moi doi: ThanhHuong#2512, nho doi lai sau 90 ngay"),
    (
        "password",
        "Khách: em ơi chị không đăng nhập được, tk chị là hoa.tran84@gmail.com mk là Hoa123456@ em vào xem giúp chị đơn hàng nhé",
    ),
    ("password", "VPS mới thuê: ssh root@45.124.84.19, pass: Vps!Hn2026@root"),
    ("password", "Apple ID của bé Bin: bi.nguyen2014@icloud.com / Bin@2014apple, mã khóa màn hình iPad là 1408"),
    (
        "pin",
        "Trân trọng,\nLê Thu Trang – Kế toán\nĐT: 0903 118 227\nPIN USB token ký số: 739204 (dùng khi anh Quân nộp tờ khai)",
    ),
]

LOOKALIKES = [
    # ---- talk about security practice ----------------------------------
    (
        "security_advice",
        "Linh wants me to remind her to move everything into a password manager and turn on 2FA for her bank app this weekend.",
    ),
    (
        "security_advice",
        "Anh Tùng dặn: không bao giờ dán private key hay seed phrase vào chat, kể cả khi support của sàn xin.",
    ),  # hard
    (
        "security_advice",
        "Seed phrase = 12 hoặc 24 từ tiếng Anh theo chuẩn BIP-39; viết ra giấy, cất ở hai nơi, tuyệt đối không chụp ảnh.",
    ),  # hard
    ("security_advice", "Remind me to regenerate my GitHub recovery codes after I switch to the new phone."),
    (
        "security_advice",
        "Mật khẩu wifi nhà đã lưu trong Bitwarden mục 'Nhà', đừng ghi ra giấy dán tủ lạnh nữa.",
    ),  # hard
    (
        "commit_message",
        "chore: rotate leaked Stripe key, purge it from history with git filter-repo, add gitleaks to pre-commit",
    ),  # hard
    (
        "password_rule",
        "Quy định công ty: mật khẩu tối thiểu 12 ký tự, có chữ hoa, số và ký tự đặc biệt, đổi mỗi 90 ngày.",
    ),
    (
        "password_rule",
        "Password requirements for the school portal: 8–64 characters, no spaces, can't reuse your last 5.",
    ),
    ("pin_policy", "PIN must be 6 digits and can't be your birthday or a run like 123456 — that's the new MoMo rule."),
    (
        "pin_policy",
        "Ngân hàng nhắn: mã PIN thẻ phải gồm 6 chữ số, không dùng ngày sinh. Nhớ ra quầy đổi PIN trước 15/12.",
    ),
    ("otp_policy", "Ma OTP cua Vietcombank chi co hieu luc 3 phut, het han thi bam 'Gui lai ma'."),
    (
        "otp_policy",
        "Forwarded SMS: Your verification code is ****** (hidden on lock screen). Never share this code.",
    ),  # hard
    # ---- placeholders in real syntax -----------------------------------
    ("placeholder", "ENV DB_PASSWORD=${DB_PASSWORD}"),  # hard
    (
        "placeholder",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: kho-db\ntype: Opaque\ndata:\n  DB_PASSWORD: <base64-encoded-password>",
    ),  # hard
    ("placeholder", "Template cho ~/.netrc: machine github.com login <username> password <personal-access-token>"),
    (
        "placeholder",
        "File .env.example: SMTP_USER=your_email@gmail.com, SMTP_PASS=*** (xin anh Tuấn app password riêng)",
    ),
    ("placeholder", 'variable "db_password" {\n  type      = string\n  sensitive = true\n}'),  # hard
    (
        "placeholder",
        "otpauth URI format for the docs page: otpauth://totp/{issuer}:{account}?secret={BASE32_SECRET}&issuer={issuer}",
    ),  # hard
    (
        "placeholder",
        'EMAIL_HOST = "smtp.gmail.com"\nEMAIL_PORT = 587\nEMAIL_USE_TLS = True\nEMAIL_HOST_PASSWORD = os.environ["EMAIL_HOST_PASSWORD"]',
    ),  # hard
    (
        "placeholder",
        "env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: kho-db\n      key: DB_PASSWORD",
    ),
    (
        "placeholder",
        "OCR từ ảnh chụp code:\n1 import os\n2 TOKEN = os.getenv('BOT_TOKEN')\n3 bot = Bot(token=TOKEN)",
    ),  # hard
    (
        "format_description",
        "Format của .pgpass là hostname:port:database:username:password, file phải chmod 0600 không thì psql bỏ qua.",
    ),
    (
        "format_description",
        "Chrome's password export CSV has the columns name,url,username,password,note — delete the file after importing into Bitwarden.",
    ),
    (
        "default_credential",
        "The Grafana container ships with admin/admin and forces a change on first login — ours has already been changed.",
    ),  # hard
    # ---- published example / test values -------------------------------
    (
        "test_value",
        "Stripe test card for the checkout demo: 4242 4242 4242 4242, any future expiry, any 3-digit CVC.",
    ),  # hard
    (
        "test_value",
        "Ví dụ trong tài liệu AWS: aws_access_key_id = AKIAIOSFODNN7EXAMPLE, aws_secret_access_key = "
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY — chép nguyên để viết hướng dẫn cho intern.",
    ),  # hard
    (
        "test_value",
        "Thẻ test VNPay sandbox (trên trang tài liệu): ngân hàng NCB, số thẻ 9704198526191432198, tên NGUYEN VAN A, "
        "ngày phát hành 07/15, OTP 123456.",
    ),  # hard
    (
        "test_value",
        "Stripe docs sample publishable key used in the demo frontend: pk_test_TYooMQauvdEDq54NiTphI7jx",
    ),  # hard
    # ---- masked / partial payment info ---------------------------------
    ("masked_card", "Thanh toán bằng thẻ Visa **** **** **** 0723, tiền hoàn sẽ về sau 7–10 ngày làm việc."),
    ("masked_card", "Card ending in 4471 was charged $12.99 for the iCloud 200GB plan on Nov 3."),
    ("money", "Chuyển khoản 2.500.000đ tiền nhà tháng 12 cho cô Hạnh, nội dung: P302 T12 Nguyen Minh."),
    ("money", "Paid Dad back $340 via Zelle for the Tet flights, memo 'Tet tickets'."),
    (
        "money",
        "Bố đọc qua điện thoại: chuyển cho chú Tư 5 triệu, ghi nội dung 'tien phan bon', số tài khoản chú gửi qua Zalo sau.",
    ),
    # ---- public keys, fingerprints, addresses, hashes ------------------
    (
        "public_key",
        "My SSH public key for the new server: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDYJjSNIDj1XFuOfiKvOS7s8i3a86BNZY/D5HQUB2a6n minh@thinkpad",
    ),  # hard
    (
        "fingerprint",
        "Host key fingerprint khi ssh lần đầu: ED25519 key fingerprint is SHA256:RYeYslrs5yCeeUbPwCw8SwhmyK6VxI73BhSP1384BJc — đã xác nhận đúng với admin.",
    ),
    ("fingerprint", "PGP fingerprint của mình để mọi người verify: 941A 70F9 B4B6 4D91 B435 785D B938 D7D5 3296 CF64"),
    ("crypto_address", "Địa chỉ ví ETH nhận tiền freelance: 0x14104db25753092de226a9f66062cf4c906dd915"),  # hard
    ("crypto_address", "BTC donation address on my blog footer: bc1q5emwtrc0t0y05x9qgygapt42dqu55cv94ughsg"),  # hard
    (
        "hash",
        "sha256sum của file ISO đã tải về: ccf677f165865fc20b11cfd3f3c3b43033a848410bf53c49dd12cc6b9669bc53  ubuntu-26.04-desktop-amd64.iso",
    ),  # hard
    ("hash", "Commit 2bb064ccefaf1e3423dc9502b310da203cf2b23a là commit gây lỗi thanh toán, revert lại nhé."),
    (
        "hash",
        "Pin the base image in the Dockerfile: FROM nginx@sha256:98700c5b6f0e210ec6064226a8d9973bddfdac7f6a8a2db461246a49e52b6254",
    ),
    (
        "ciphertext",
        "group_vars/prod.yml\ndb_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n"
        "  583d8865190b624777ba3a159495ab544a41360aa82c2c347d27d48c32f2985e3990264fb85594ab\n"
        "  a375f75f96d20031165e6c130b998c956b1dae7737eec1d85d5f1ac157d5fdb13ee94431c14b6d78",
    ),  # hard
    (
        "base64_non_secret",
        "ConfigMap-ish values someone put in a Secret:\ndata:\n  LOG_LEVEL: aW5mbw==\n  APP_ENV: cHJvZHVjdGlvbg==",
    ),  # hard
    (
        "jwt_header_only",
        'Mọi JWT HS256 đều bắt đầu bằng eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 vì đó chỉ là header {"alg":"HS256","typ":"JWT"} mã hóa base64url.',
    ),  # hard
    (
        "git_remote",
        "git remote -v\norigin  git@github.com:tuan-dev/erp-noi-bo.git (fetch)\norigin  git@github.com:tuan-dev/erp-noi-bo.git (push)",
    ),
    # ---- identifiers ---------------------------------------------------
    (
        "request_id",
        "Request ID khi bị lỗi 500: dd2e3d67-727a-4f3d-aead-aa9f02e1f2fc, gửi cho team backend kiểm tra log.",
    ),
    (
        "request_id",
        "Stripe customer cus_Q8xZr2LmN4pT7v, payment intent pi_3QkT9sE2mR1aB0cD1xYzW8uV failed with card_declined.",
    ),  # hard
    ("chat_id", "Chat ID nhóm báo đơn: -1002134567890, bot username @ShopBaoDon_bot."),
    ("booking_code", "Mã đặt chỗ Vietnam Airlines: K7Q2XN, chuyến VN245 SGN–HAN 06:00 ngày 20/12, ghế 14C."),
    (
        "booking_code",
        "Agoda booking ID 1284759302, check-in Dec 24 at the Hoi An riverside hotel, free cancellation until Dec 20.",
    ),
    ("order_code", "Đơn Shopee 241130RX7K9P2M đang giao, mã vận đơn SPXVN04812967735."),
    ("order_code", "Fwd SMS: [GHN] Don hang GHN5K8T2QX9 se duoc giao trong ngay 03/12. Vui long de y dien thoai."),
    ("phone", "Số của chú Ba thợ điện: 0908 337 214, gọi sau 8h sáng."),
    ("phone", "Tổng đài hỗ trợ thẻ đọc trong ghi âm: một chín không không, năm năm năm, năm hai hai."),  # hard
    ("national_id", "Số CCCD của mẹ để khai báo tạm trú: 079162004318, cấp ngày 15/04/2021."),
    ("tax_id", "Mã số thuế cá nhân của mình: 8312457690, dùng khi quyết toán thuế TNCN."),
    ("tax_id", "EIN for Lotus Ceramics LLC is 84-3927165 — needed for the 1099 forms."),
    ("isbn", "Sách con cần mua: ISBN 978-604-2-18375-8, NXB Giáo dục."),
    ("cve", "CVE-2026-41873 affects the image library we use; upgrade to 2.4.1 before the release."),
    # ---- wifi without password -----------------------------------------
    ("wifi_no_password", "Hotel Wi-Fi is 'Melia-Guest', ask reception for the password — it changes daily."),
    ("wifi_no_password", "Wifi ở văn phòng mới tên VP-Tang5-5G, mật khẩu thì hỏi chị lễ tân nhé."),
    ("wifi_no_password", "QR ở quán decode ra WIFI:T:nopass;S:Highlands_Free;; — mạng mở, không cần mật khẩu."),  # hard
    # ---- signature, voice notes, lists, misc ---------------------------
    (
        "email_signature",
        "Best regards,\nHoang Nam | Finance Ops\nExt. 2231 · +84 28 3822 9100 · Office hours 8:30–17:30",
    ),
    (
        "voice_note_digits",
        "Ghi âm: nhà bác Sáu số bốn mươi ba, hẻm một trăm hai mươi, đường Lê Văn Sỹ, quận ba.",
    ),  # hard
    (
        "voice_note_digits",
        "Voice memo: dentist moved to nine fifteen on the twenty-second, room two oh four, bring the X-rays.",
    ),
    (
        "word_list",
        "Shopping list:\n1. milk\n2. eggs\n3. bread\n4. apple\n5. butter\n6. rice\n7. onion\n8. garlic\n9. lemon\n10. coffee\n11. sugar\n12. salt",
    ),  # hard
    (
        "word_list",
        "12 từ vựng tiếng Anh con cần học tuần này: 1. ocean 2. forest 3. river 4. mountain 5. island 6. desert "
        "7. valley 8. canyon 9. volcano 10. glacier 11. meadow 12. harbor",
    ),  # hard
    ("lyrics", "Bài con hay hát: 'Một con vịt xòe ra hai cái cánh, nó kêu rằng quác quác quác, quạc quạc quạc'."),
    ("version_date", "Nâng cấp Node lên 22.11.0 và PostgreSQL 17.2 trước ngày 15/01/2027."),
    ("coordinates", "Tọa độ nhà bà ngoại ở Bến Tre: 10.2415, 106.3759 — gửi cho tài xế Grab."),
]
